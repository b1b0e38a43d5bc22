/**
 * The REST surface `/open/v1/…` for integrators: JSON, `Authorization: Bearer <key>`, no envelope. Each endpoint runs
 * the browser's call as the key's user through the router's other door (CallRouter.invoke): the same checks, prices
 * and limits, one implementation. Refusals are `{code: 1, msg}` with the call's Chinese message and a fitting status.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { z } from 'zod';
import {
  API, IDEMPOTENCY_HEADER, LIMITS, MSG, OPEN_BASE, OPEN_ENDPOINTS, OpenDubbingCreate, OpenWorkCreate, ResultCode, WorkStatus, type CallResponse, type OpenEndpoint,
} from '../../../src/contract';
import { ApiError, validationMessage, type SessionUser } from '../../infra/http';
import type { JobPayloads } from '../../infra/queue';
import { PerUserRate, type RateCount } from '../../infra/rate-limit';
import type { FeatureContext } from '../../app-context';
import { FORM_OVERHEAD, MAX_BYTES, REFUSED, uploadService } from '../upload';
import { OpenApiRepository, type KeyRow } from './openapi.repository';
import { WATCH_SECONDS, keyHash, openDubbing, openWork, ownDubbing, ownWork, type RecordList } from './openapi.service';

/** The HTTP status of a refusal, by its message: what an integrator's code branches on. */
const STATUS_OF: ReadonlyMap<string, number> = new Map([
  [MSG.apiKeyInvalid, 401],
  [MSG.insufficientCredits, 402],
  [MSG.notFound, 404],
  [MSG.dubRecordMissing, 404],
  [MSG.idempotencyReused, 409],
  [MSG.idempotencyRunning, 409],
  [MSG.workBusyOrMissing, 409],
  [MSG.dubBusy, 409],
  [MSG.tooManyRequests, 429],
]);

interface Caller {
  key: KeyRow;
  user: SessionUser;
}

type Answer = { status: number; body: unknown };

/**
 * The OpenAPI document, made at its first request and kept for the process: zod-openapi and the document cost each
 * server start about 0.12 CPU-s, and most servers are never asked for it.
 */
let openApiDocumentMade: Promise<object> | undefined;
const openApiDocumentOnce = () => (openApiDocumentMade ??= import('./openapi.document').then((m) => m.openApiDocument()));

const bodyHash = (parts: unknown[]) => bytesToHex(sha256(utf8ToBytes(JSON.stringify(parts))));

export async function registerOpenSurface(ctx: FeatureContext): Promise<void> {
  const { app, db, router } = ctx;
  const keys = new OpenApiRepository(db);
  const uploads = uploadService(ctx);
  const requests = new PerUserRate(LIMITS.openApi.requestsPerMinute);
  /** Works and dubs submitted: one allowance for both. */
  const submissions = new PerUserRate(LIMITS.openApi.worksPerMinute);

  const send = (reply: FastifyReply, a: Answer) => reply.status(a.status).type('application/json; charset=utf-8').header('cache-control', 'no-store').send(JSON.stringify(a.body));
  const refuse = (reply: FastifyReply, msg: string) => send(reply, { status: STATUS_OF.get(msg) ?? 400, body: { code: ResultCode.Error, msg } });
  const limitHeaders = (reply: FastifyReply, limit: number, count: RateCount) => {
    reply.header('ratelimit-limit', limit).header('ratelimit-remaining', Math.max(0, count.remaining)).header('ratelimit-reset', count.resetSeconds);
    if (!count.ok) reply.header('retry-after', count.resetSeconds);
    return count.ok;
  };

  async function caller(request: FastifyRequest): Promise<Caller | undefined> {
    const m = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
    const key = m ? await keys.useKey(keyHash(m[1]!)) : undefined;
    if (!key) return undefined;
    return { key, user: { id: key.user_id, username: key.username, is_tourist: 0, token: '' } };
  }

  /** Runs a POST once for its Idempotency-Key: a retry with the same body answers the first answer. */
  async function idempotent(request: FastifyRequest, keyId: number, hash: string, run: () => Promise<Answer>): Promise<Answer> {
    const idem = request.headers[IDEMPOTENCY_HEADER];
    if (typeof idem !== 'string' || !idem) return run();
    if (idem.length > 200) throw new ApiError(`${MSG.badRequest}（Idempotency-Key）`);
    const first = await keys.claimIdempotent(keyId, idem, hash);
    if (first) {
      if (first.request_hash !== hash) throw new ApiError(MSG.idempotencyReused);
      if (first.status === null) throw new ApiError(MSG.idempotencyRunning);
      return { status: first.status, body: first.body };
    }
    try {
      const answer = await run();
      await keys.finishIdempotent(keyId, idem, answer.status, answer.body);
      return answer;
    } catch (err) {
      await keys.releaseIdempotent(keyId, idem);
      throw err;
    }
  }

  /** A submission (a work or a dub): once per Idempotency-Key, under the submissions rate, watched for its webhook. */
  function submit(c: Caller, e: OpenEndpoint, input: unknown, kind: JobPayloads['openapi-webhook']['kind'], http: { request: FastifyRequest; reply: FastifyReply }, create: () => Promise<{ id: number }>) {
    return idempotent(http.request, c.key.id, bodyHash([e.id, input]), async () => {
      if (!limitHeaders(http.reply, LIMITS.openApi.worksPerMinute, submissions.count(c.key.id))) throw new ApiError(MSG.tooManyRequests);
      const { id } = await create();
      if (c.key.webhook_url) await ctx.queue.send('openapi-webhook', { keyId: c.key.id, kind, objectId: id }, { startAfter: ctx.config.openApi?.watchSeconds ?? WATCH_SECONDS });
      return { status: 201, body: { id } };
    });
  }

  /** One endpoint: the key, the request rate, the parsed input, then `run`; every refusal answers `{code, msg}`. */
  function serve(e: OpenEndpoint, run: (c: Caller, input: { body: unknown; query: Record<string, unknown>; id: number }, request: FastifyRequest, reply: FastifyReply) => Promise<Answer>) {
    return async (request: FastifyRequest, reply: FastifyReply) => {
      const c = await caller(request);
      if (!c) return refuse(reply, MSG.apiKeyInvalid);
      if (!limitHeaders(reply, LIMITS.openApi.requestsPerMinute, requests.count(c.key.id))) return refuse(reply, MSG.tooManyRequests);
      try {
        const id = e.pathId ? Number((request.params as { id?: string }).id) : 0;
        if (e.pathId && !(Number.isInteger(id) && id > 0 && id <= 2 ** 31 - 1)) throw new ApiError(MSG.notFound);
        const query = e.query ? parseOr(e.query, request.query) : {};
        const body = e.body && e.body !== 'multipart' ? parseOr(e.body, request.body ?? {}) : undefined;
        return send(reply, await run(c, { body, query, id }, request, reply));
      } catch (err) {
        if (err instanceof ApiError) return refuse(reply, err.message);
        request.log.error({ err, endpoint: e.id }, 'open api call failed');
        return send(reply, { status: 500, body: { code: ResultCode.Error, msg: MSG.serverError } });
      }
    };
  }

  /** A page of the key's user's records through the browser's list call, each in the surface's shape. */
  function listed<C extends RecordList>(e: OpenEndpoint, call: C, view: (r: CallResponse<C>['list'][number]) => unknown) {
    return serve(e, async (c, { query }, request, reply) => {
      const { page, limit } = query as { page: number; limit: number };
      const r = await router.invoke(call, { page, limit }, c.user, { request, reply });
      return { status: 200, body: { list: r.list.map(view), total: r.total } };
    });
  }

  const parseOr = <T extends z.ZodType>(schema: T, input: unknown): z.output<T> => {
    const parsed = schema.safeParse(input);
    if (!parsed.success) throw new ApiError(validationMessage(parsed.error));
    return parsed.data;
  };

  const path = (e: OpenEndpoint) => e.path.replace('{id}', ':id');
  const E = OPEN_ENDPOINTS;

  await app.register(async (scope: FastifyInstance) => {
    await scope.register(multipart, { limits: { files: 1, fields: 4, fieldSize: 1024, parts: 5 } });
    // Fastify's own refusals (broken JSON, an oversized body) in the surface's shape.
    scope.setErrorHandler((err: Error & { statusCode?: number }, request, reply) => {
      const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
      if (status >= 500) request.log.error({ err }, 'open api request failed');
      return send(reply, { status, body: { code: ResultCode.Error, msg: status >= 500 ? MSG.serverError : MSG.badRequest } });
    });
    scope.setNotFoundHandler((_request, reply) => refuse(reply, MSG.notFound));

    scope.get('/openapi.json', async (_request, reply) => reply.header('cache-control', 'no-cache').send(await openApiDocumentOnce()));

    scope.get(path(E.me), serve(E.me, async (c, _i, request, reply) => {
      const { credits } = await router.invoke(API.account.credits, {}, c.user, { request, reply });
      const space = await router.invoke(API.credits.space, {}, c.user, { request, reply });
      return { status: 200, body: { username: c.user.username, credits, space } };
    }));

    scope.get(path(E.avatars), serve(E.avatars, async (c, _i, request, reply) => {
      const lists = await Promise.all([1, 2].map((source) => router.invoke(API.avatars.list, { source, page: 1, limit: LIMITS.listLimitAll }, c.user, { request, reply })));
      const list = lists.flatMap((l) => l.list).map((a) => ({ id: a.id, name: a.name, cover: a.cover, source: a.source, status: a.status, duration: a.duration }));
      return { status: 200, body: { list } };
    }));

    scope.get(path(E.voices), serve(E.voices, async (c, _i, request, reply) => {
      const lists = await Promise.all([1, 2].map((source) => router.invoke(API.voices.list, { source, page: 1, limit: LIMITS.listLimitAll }, c.user, { request, reply })));
      const list = lists.flatMap((l) => l.list).map((v) => ({ id: v.id, name: v.name, url: v.url, source: v.source, generate_status: v.generate_status }));
      return { status: 200, body: { list } };
    }));

    scope.post(path(E.upload), serve(E.upload, async (c, { query }, request) => {
      const type = (query as { type: 'video' | 'voice' | 'image' }).type;
      const declared = Number(request.headers['content-length']);
      const hash = bodyHash([E.upload.id, type, declared, request.headers['content-type']]);
      return idempotent(request, c.key.id, hash, async () => {
        if (!request.isMultipart()) throw new ApiError(MSG.uploadFailed);
        const part = await request.file({ limits: { fileSize: MAX_BYTES[type] } }).catch(() => undefined);
        if (!part || part.fieldname !== 'file') {
          part?.file.resume();
          throw new ApiError(MSG.uploadFailed);
        }
        if (!Number.isFinite(declared) || declared > MAX_BYTES[type] + FORM_OVERHEAD) {
          part.file.resume();
          throw new ApiError(REFUSED[type]);
        }
        const stored = await uploads.acceptPosted({ userId: c.user.id, type, declared, file: part.file, fileName: part.filename });
        return { status: 201, body: { file_id: stored.file_id } };
      });
    }));

    scope.post(path(E.workCreate), serve(E.workCreate, async (c, { body }, request, reply) => {
      const w = body as z.output<typeof OpenWorkCreate>;
      return submit(c, E.workCreate, w, 'work', { request, reply }, () => {
        const audio = w.audio_file_id !== undefined;
        const params = {
          name: w.name, api: w.channel, video_id: w.avatar_id, subtitles: w.subtitles ? 1 : 0,
          ...(audio ? { drive: 'audio', voice_id: w.audio_file_id } : { drive: 'text', user_voice_id: w.voice_id, text: w.text }),
        };
        return router.invoke(API.works.create, params, c.user, { request, reply });
      });
    }));

    scope.get(path(E.workList), listed(E.workList, API.works.list, openWork));

    scope.get(path(E.workGet), serve(E.workGet, async (c, { id }, request, reply) => ({ status: 200, body: openWork(await ownWork(router, c.user, id, { request, reply })) })));

    scope.delete(path(E.workDelete), serve(E.workDelete, async (c, { id }, request, reply) => {
      const found = await ownWork(router, c.user, id, { request, reply });
      if (found.status !== WorkStatus.Success && found.status !== WorkStatus.Failed) throw new ApiError(MSG.workBusyOrMissing);
      await router.invoke(API.works.remove, { id }, c.user, { request, reply });
      return { status: 200, body: {} };
    }));

    // The browser's dubbing calls; its lines travel as JSON text there, as an array here.
    scope.post(path(E.dubbingCreate), serve(E.dubbingCreate, async (c, { body }, request, reply) => {
      const d = body as z.output<typeof OpenDubbingCreate>;
      return submit(c, E.dubbingCreate, d, 'dubbing', { request, reply }, () =>
        router.invoke(API.dubbing.create, { ...d, lines: JSON.stringify(d.lines) }, c.user, { request, reply }));
    }));

    scope.get(path(E.dubbingList), listed(E.dubbingList, API.dubbing.list, openDubbing));

    scope.get(path(E.dubbingGet), serve(E.dubbingGet, async (c, { id }, request, reply) => ({ status: 200, body: openDubbing(await ownDubbing(router, c.user, id, { request, reply })) })));

    // One still being made answers 409 (MSG.dubBusy) from the call itself.
    scope.delete(path(E.dubbingDelete), serve(E.dubbingDelete, async (c, { id }, request, reply) => {
      await ownDubbing(router, c.user, id, { request, reply });
      await router.invoke(API.dubbing.remove, { id }, c.user, { request, reply });
      return { status: 200, body: {} };
    }));
  }, { prefix: OPEN_BASE });
}
