/**
 * The upload calls and the storage host's two multipart endpoints (the spec's direct upload on the local-disk driver,
 * and the voice-clone audio), thin over the upload service: the browser posts the file to `/storage` (key = dir +
 * timestamp + random + extension, x-token header), then `upload.complete` registers it.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { API, MSG, ResultCode, TOKEN_HEADER } from '../../../src/contract';
import { ApiError, sendResult } from '../../infra/http';
import type { FeatureContext } from '../../app-context';
import { MAX_BYTES, REFUSED } from './upload.rules';
import { FORM_OVERHEAD, uploadService } from './upload.service';

export async function registerUploadRoutes(ctx: FeatureContext): Promise<void> {
  const { router, app } = ctx;
  const uploads = uploadService(ctx);

  router.handle(API.upload.sign, ({ params, user }) => uploads.signUpload(user.id, params.file_type, params.size));
  router.handle(API.upload.complete, ({ params, user }) => uploads.complete(user.id, params.url, params.file_type, params.name));

  // ---- the storage host: a multipart POST, S3/OSS style
  router.handledElsewhere(API.upload.direct);
  router.handledElsewhere(API.upload.voice);
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { files: 1, fields: 10, fieldSize: 16 * 1024, parts: 12 } });
    scope.post('/storage', async (request: FastifyRequest, reply: FastifyReply) => {
      const fail = (msg: string, status = 400) => sendResult(reply, undefined, ResultCode.Error, msg, null, status);
      const token = request.headers[TOKEN_HEADER];
      const user = typeof token === 'string' ? await ctx.sessions.authenticate(token) : null;
      if (!user) return sendResult(reply, undefined, ResultCode.SessionExpired, MSG.sessionExpired, null, 401);
      if (!request.isMultipart()) return fail(MSG.uploadFailed);

      const part = await request.file({ limits: { fileSize: MAX_BYTES.video } }).catch(() => undefined);
      if (!part) return fail(MSG.uploadFailed);
      const field = (name: string) => {
        const f = part.fields[name] as { value?: unknown } | undefined;
        return typeof f?.value === 'string' ? f.value : undefined;
      };
      const policy = uploads.readPolicy(field('policy'), field('signature'));
      const key = field('key') ?? '';
      if (!policy || policy.user !== user.id) {
        part.file.resume();
        return fail(MSG.uploadExpired, 403);
      }
      if (!key.startsWith(policy.dir) || !/^\d{10,30}(\.[A-Za-z0-9]{1,8})?$/.test(key.slice(policy.dir.length))) {
        part.file.resume();
        return fail(MSG.uploadFailed, 403);
      }
      const declared = Number(request.headers['content-length']);
      if (!Number.isFinite(declared) || declared > policy.max + FORM_OVERHEAD) {
        part.file.resume();
        return fail(REFUSED[policy.type], 413);
      }

      const refused = await uploads.receive({ userId: user.id, upload: policy.upload, type: policy.type, key, declared, max: policy.max, expiresAt: policy.exp + 3600, file: part.file });
      if (refused) {
        request.log.info({ err: refused }, 'direct upload refused');
        return fail(refused, refused === MSG.spaceFull || refused === MSG.uploadExpired ? 403 : 400);
      }
      const status = field('success_action_status') === '200' ? 200 : 204;
      return status === 200 ? sendResult(reply, undefined, ResultCode.Ok, MSG.uploadSucceeded, { key }) : reply.status(204).send();
    });

    // The voice-clone audio's own endpoint: one multipart request, checked and registered like upload.complete.
    scope.post(API.upload.voice.path, async (request: FastifyRequest, reply: FastifyReply) => {
      const answer = (code: ResultCode, msg: string, data: unknown = null, status = 200) => sendResult(reply, undefined, code, msg, data, status);
      const token = request.headers[TOKEN_HEADER];
      const user = typeof token === 'string' ? await ctx.sessions.authenticate(token) : null;
      if (!user) return answer(ResultCode.SessionExpired, MSG.sessionExpired, null, 401);
      if (!request.isMultipart()) return answer(ResultCode.Error, MSG.voiceAudioRequired);
      const part = await request.file({ limits: { fileSize: MAX_BYTES.voice } }).catch(() => undefined);
      if (!part || part.fieldname !== 'file') {
        part?.file.resume();
        return answer(ResultCode.Error, MSG.voiceAudioRequired);
      }
      const declared = Number(request.headers['content-length']);
      if (!Number.isFinite(declared) || declared > MAX_BYTES.voice + FORM_OVERHEAD) {
        part.file.resume();
        return answer(ResultCode.Error, REFUSED.voice, null, 413);
      }
      try {
        return answer(ResultCode.Ok, MSG.uploadSucceeded, await uploads.acceptPosted({ userId: user.id, type: 'voice', declared, file: part.file, fileName: part.filename }));
      } catch (err) {
        if (err instanceof ApiError) return answer(ResultCode.Error, err.message);
        throw err;
      }
    });
  });

}
