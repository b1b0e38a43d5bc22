/**
 * The spec's upload flow on the local-disk driver: `upload.sign` hands out an OSS-style POST policy whose host is
 * this server's `/storage`; the browser posts the file there (key = dir + timestamp + random + extension, x-token
 * header); `upload.complete` checks the bytes by content and registers the file. Space is reserved before the
 * bytes land, so concurrent uploads can never exceed a user's quota.
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { API, MSG, ResultCode, TOKEN_HEADER, UPLOAD_FILE_TYPES, type UploadFileType } from '../../../src/contract';
import { ApiError, sendResult } from '../../infra/http';
import { dataSecret } from '../../infra/data-dir';
import type { FeatureContext } from '../../app-context';
import { checkHead, checkMedia, MAX_BYTES, MediaRefused, REFUSED } from './upload.rules';
import { isObjectKey, readHead } from '../../infra/storage';
import { UploadRepository, type Reservation } from './upload.repository';

const POLICY_TTL_SECONDS = 30 * 60;
/** The Content-Type a bucket upload must declare (its class) and the one the form sends; the real one is set at registration. */
const POSTED_TYPE = {
  video: { typePrefix: 'video/', contentType: 'video/mp4' },
  voice: { typePrefix: 'audio/', contentType: 'audio/mpeg' },
  image: { typePrefix: 'image/', contentType: 'image/png' },
} as const;
const TYPE_LABEL = { video: '视频', voice: '音频', image: '图片' } as const;

/** The name a material keeps: the device's file name without its extension, or a dated default. */
export function materialName(fileName: string | undefined, type: UploadFileType): string {
  const base = (fileName ?? '').replace(/\.[A-Za-z0-9]{1,8}$/, '').trim().slice(0, 50);
  return base || `${TYPE_LABEL[type]}素材${new Date().toISOString().slice(0, 10)}`;
}
/** Multipart framing and the form fields around the file. */
const FORM_OVERHEAD = 64 * 1024;

interface Policy {
  exp: number;
  user: number;
  type: UploadFileType;
  upload: string;
  dir: string;
  max: number;
}

export function registerUploadRoutes(ctx: FeatureContext, app: FastifyInstance): void {
  const { router, db, storage, urls, settings, config } = ctx;
  const uploads = new UploadRepository(db);
  const secret = dataSecret(config.dataDir, 'storage.key');
  const sign = (policy: string) => createHmac('sha256', secret).update(policy).digest('base64');
  /** S3-compatible storage: browsers post straight to the bucket (a presigned POST), space is held at signing. */
  const bucketUploads = storage.canPresignPost;

  /**
   * The bucket cannot ask us about space, so the policy allows only what is reserved now: the declared size (at
   * most the type's limit), held for the whole upload folder until the upload is registered or swept.
   */
  async function signBucketUpload(userId: number, upload: string, dir: string, type: UploadFileType, bytes: number) {
    const expiresAt = Math.floor(Date.now() / 1000) + POLICY_TTL_SECONDS;
    const refused = await reserveSpace({ upload, userId, type, bytes, key: dir, expiresAt: expiresAt + 3600 });
    if (refused) throw new ApiError(refused);
    const post = await storage.presignPost({ dir, maxBytes: bytes, ...POSTED_TYPE[type], expiresSeconds: POLICY_TTL_SECONDS });
    return { host: post.host, dir, access_key_id: post.accessKeyId, policy: post.policy, signature: post.signature, fields: post.fields };
  }

  function readPolicy(policy: unknown, signature: unknown): Policy | null {
    if (typeof policy !== 'string' || typeof signature !== 'string') return null;
    const expected = Buffer.from(sign(policy));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    try {
      const p = JSON.parse(Buffer.from(policy, 'base64').toString('utf8')) as Policy;
      return p.exp > Date.now() / 1000 && UPLOAD_FILE_TYPES.includes(p.type) ? p : null;
    } catch {
      return null;
    }
  }

  /** Holds bytes of the user's free space for one upload; answers the user's message when refused, else null. */
  async function reserveSpace(r: Reservation): Promise<string | null> {
    const baseGb = await settings.operatorNumber('space_base_gb');
    return db.tx(async (q) => {
      const held = new UploadRepository(q);
      if ((await held.freeBytes(r.userId, baseGb, r.upload)) < r.bytes) return MSG.spaceFull;
      return (await held.reserve(r)) ? null : MSG.uploadExpired;
    });
  }

  /**
   * Reserves the declared size against the user's free space, then streams the bytes to `key`. Answers the
   * user's message when refused (nothing is left behind), or null once the bytes are stored.
   */
  async function receive(r: { userId: number; upload: string; type: UploadFileType; key: string; declared: number; max: number; expiresAt: number; file: Readable & { truncated?: boolean } }): Promise<string | null> {
    const reserved = await reserveSpace({ upload: r.upload, userId: r.userId, type: r.type, bytes: Math.min(r.declared, r.max), key: r.key, expiresAt: r.expiresAt });
    if (reserved) {
      r.file.resume();
      return reserved;
    }
    try {
      const { size } = await storage.put(r.key, r.file);
      if (r.file.truncated || size > r.max || size === 0) throw new MediaRefused(REFUSED[r.type]);
      await uploads.resize(r.upload, size);
      return null;
    } catch (err) {
      await storage.delete(r.key).catch(() => undefined);
      await uploads.release(r.upload);
      return err instanceof MediaRefused ? err.message : REFUSED[r.type];
    }
  }

  /**
   * Checks stored upload bytes by content and registers them as the user's file and material (or discards them).
   * The size and the first bytes are checked before the (bounded) copy that ffprobe reads.
   */
  async function register(userId: number, key: string, upload: string, type: UploadFileType, name: string | undefined): Promise<{ file_id: number; url: string }> {
    const stat = await storage.stat(key);
    // A bucket's upload folder may hold more than the registered key (a policy posts again until it expires).
    const clearUpload = () => storage.removeAll(key.slice(0, key.lastIndexOf('/') + 1)).catch(() => undefined);
    const discard = async () => {
      await storage.delete(key).catch(() => undefined);
      if (bucketUploads) await clearUpload();
      await uploads.release(upload);
    };
    if (!stat) {
      await discard();
      throw new ApiError(MSG.uploadFailed);
    }
    let media;
    try {
      checkHead(await readHead(storage, key, stat.size), type, stat.size);
      media = await storage.withLocalFile(key, (file) => checkMedia(file, type, stat.size));
    } catch (err) {
      await discard();
      if (err instanceof MediaRefused) throw new ApiError(err.message);
      throw err;
    }
    const finalKey = `${userId}/${randomUUID()}.${media.ext}`;
    await storage.move(key, finalKey);
    const fileId = await db.tx(async (q) => {
      const registered = new UploadRepository(q);
      await registered.release(upload);
      // Every upload is also in the user's material library, until its file is deleted.
      return registered.addFile({ userId, type, key: finalKey, size: stat.size, duration: media.duration, name: materialName(name, type) });
    });
    await storage.delete(key).catch(() => undefined);
    if (bucketUploads) await clearUpload();
    return { file_id: fileId, url: urls.url(finalKey) };
  }

  router.handle(API.upload.sign, async ({ params, user }) => {
    const upload = randomUUID();
    const dir = `uploads/${user.id}/${upload}/`;
    const max = MAX_BYTES[params.file_type];
    if (bucketUploads) return signBucketUpload(user.id, upload, dir, params.file_type, Math.min(params.size ?? max, max));
    const body: Policy = { exp: Math.floor(Date.now() / 1000) + POLICY_TTL_SECONDS, user: user.id, type: params.file_type, upload, dir, max };
    // The same facts in the OSS policy vocabulary, for clients that read it.
    const policy = Buffer.from(
      JSON.stringify({ ...body, expiration: new Date(body.exp * 1000).toISOString(), conditions: [['starts-with', '$key', dir], ['content-length-range', 1, max]] }),
    ).toString('base64');
    return { host: '/storage', dir, access_key_id: 'local', policy, signature: sign(policy) };
  });

  // ---- the storage host: a multipart POST, S3/OSS style
  router.handledElsewhere(API.upload.direct);
  router.handledElsewhere(API.upload.voice);
  void app.register(async (scope) => {
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
      const policy = readPolicy(field('policy'), field('signature'));
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

      const refused = await receive({ userId: user.id, upload: policy.upload, type: policy.type, key, declared, max: policy.max, expiresAt: policy.exp + 3600, file: part.file });
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
      const upload = randomUUID();
      const key = `uploads/${user.id}/${upload}/${Date.now()}`;
      const refused = await receive({ userId: user.id, upload, type: 'voice', key, declared, max: MAX_BYTES.voice, expiresAt: Math.floor(Date.now() / 1000) + POLICY_TTL_SECONDS, file: part.file });
      if (refused) return answer(ResultCode.Error, refused);
      try {
        return answer(ResultCode.Ok, MSG.uploadSucceeded, await register(user.id, key, upload, 'voice', part.filename));
      } catch (err) {
        if (err instanceof ApiError) return answer(ResultCode.Error, err.message);
        throw err;
      }
    });
  });

  router.handle(API.upload.complete, async ({ params, user }) => {
    const key = urls.keyOf(params.url) ?? (await storage.keyOfPostedUrl(params.url));
    const m = key ? /^uploads\/(\d+)\/([0-9a-f-]{36})\//.exec(key) : null;
    if (!key || !m || Number(m[1]) !== user.id || !isObjectKey(key)) throw new ApiError(MSG.uploadFailed);
    const upload = m[2]!;
    const reservedType = await uploads.reservedType(upload, user.id, key);
    if (!reservedType) throw new ApiError(MSG.uploadExpired);
    if (reservedType !== params.file_type) throw new ApiError(MSG.uploadFailed);
    return register(user.id, key, upload, params.file_type, params.name);
  });
}
