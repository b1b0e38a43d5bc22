/**
 * Calls are served by contract entry: the router decodes the envelope, validates against the entry's schema,
 * authenticates, runs the handler, checks the reply against the response schema, and seals it.
 * Every failure becomes `{ code, msg }`: bad input is code 1 with a Chinese message, never a 500 or a stack trace.
 */
import { timingSafeEqual } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { serverEnvelopeKeys } from './envelope-keys';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  MSG, ResultCode, TOKEN_HEADER, OPERATOR_KEY_HEADER, openRequest, sealReply, paramsInQuery, ALL_CALLS, callGroup,
  type CallDef, type CallParsedRequest, type CallResponse, type SealedReply,
} from '../../src/contract';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: ResultCode = ResultCode.Error,
  ) {
    super(message);
  }
}

/**
 * What a call found of the user's own records (a row, or that a change touched one), else the call refused with
 * `missing`: not theirs, gone, or not in a state to change.
 */
export function found<T>(value: T, missing: string): Exclude<T, null | undefined | false> {
  if (!value) throw new ApiError(missing);
  return value as Exclude<T, null | undefined | false>;
}

export interface SessionUser {
  id: number;
  username: string;
  is_tourist: 0 | 1;
  /** The session token itself, for logout. */
  token: string;
}

export interface CallContext<C extends CallDef> {
  params: CallParsedRequest<C>;
  user: C['auth'] extends 'user' ? SessionUser : SessionUser | null;
  ip: string;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** A reply whose msg is not the generic success text (名称修改成功！ and the like). */
export class WithMessage<T> {
  constructor(
    readonly data: T,
    readonly msg: string,
  ) {}
}

export type CallHandler<C extends CallDef> = (ctx: CallContext<C>) => Promise<CallResponse<C> | WithMessage<CallResponse<C>>>;

/** Runs around another feature's handler (attempt limits): calls `run` to let the call through. */
export type CallGuard<C extends CallDef> = (ctx: CallContext<C>, run: () => ReturnType<CallHandler<C>>) => ReturnType<CallHandler<C>>;

export interface RouterDeps {
  authenticate(token: string): Promise<SessionUser | null>;
  operatorKey: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    call?: CallDef;
  }
  interface FastifyReply {
    /** The contract's result code this reply carried (for the request log line and the metrics). */
    resultCode: ResultCode | null;
  }
}

const JSON_TYPE = 'application/json; charset=utf-8';

const CJK = /[\u4e00-\u9fff]/;

/** The first schema issue as one Chinese sentence. */
export function validationMessage(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue && CJK.test(issue.message)) return issue.message;
  const field = issue?.path.join('.') || '';
  return field ? `${MSG.badRequest}（${field}）` : MSG.badRequest;
}

export function sendResult(reply: FastifyReply, call: CallDef | undefined, code: ResultCode, msg: string, data: unknown, status = 200) {
  const body = call?.checked ? sealReply(code, msg, data ?? null, undefined, serverEnvelopeKeys) : { code, msg, data: data ?? null };
  return sendBody(reply, code, replyBytes(body), status);
}

/**
 * A reply's JSON as UTF-8 bytes, encoded once. Its Chinese msg makes the JSON a two-byte string, which the socket
 * write would otherwise measure and encode again on every request (a third of a cached reply's cost, measured).
 */
const replyBytes = (body: unknown) => Buffer.from(JSON.stringify(body));

function sendBody(reply: FastifyReply, code: ResultCode, body: Buffer, status = 200) {
  reply.resultCode = code;
  return reply.status(status).type(JSON_TYPE).header('cache-control', 'no-store').send(body);
}

/**
 * Sealed replies of shared, frozen results (site info and other cached reads), reused within the second they
 * were sealed in: the same plaintext under the same nonce and timestamp, so nothing is weakened, and the
 * contract check, the AES-GCM pass and the HMAC run once a second instead of once a request.
 */
class SealedReplies {
  private readonly sealed = new WeakMap<object, { second: number; body: Buffer }>();

  get(data: object): Buffer | undefined {
    const hit = this.sealed.get(data);
    return hit && hit.second === Math.floor(Date.now() / 1000) ? hit.body : undefined;
  }

  put(data: object, body: SealedReply): Buffer {
    const bytes = replyBytes(body);
    this.sealed.set(data, { second: body.timestamp, body: bytes });
    return bytes;
  }
}

const isLoopback = (ip: string) => ip === '127.0.0.1' || ip === '::1' || ip === '::ffff:127.0.0.1';

export function keysEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * What a feature registers its calls through (`ctx.router` in its `register`): the router as that feature sees it.
 * It answers only calls of the feature's own contract group (`avatars.*` for the avatars feature …): one name per
 * feature, checked at start-up (see CallRouter.forFeature).
 */
export type FeatureRouter = Pick<CallRouter, 'handle' | 'guard' | 'handledElsewhere' | 'invoke'>;

/** A feature registered a call of another contract group: the server does not start. */
export class ForeignCallError extends Error {
  constructor(feature: string, call: CallDef) {
    super(`feature ${feature} registers ${call.id}: a feature answers only calls of its own contract group (${feature}.…)`);
  }
}

/** Who answers a call that no feature registered: the server's own routes (health). */
export const SERVER_OWNER = 'server';

export class CallRouter {
  private readonly handled = new Set<string>();
  /** Call id → the feature that answers it (or SERVER_OWNER). */
  private readonly owners = new Map<string, string>();
  private readonly guards = new Map<string, CallGuard<CallDef>>();
  private readonly handlers = new Map<string, CallHandler<CallDef>>();
  private readonly sealedReplies = new SealedReplies();

  constructor(
    private readonly app: FastifyInstance,
    private readonly deps: RouterDeps,
  ) {}

  handle<C extends CallDef>(call: C, handler: CallHandler<C>, owner = SERVER_OWNER): void {
    this.claim(call, owner);
    this.handlers.set(call.id, handler as unknown as CallHandler<CallDef>);
    this.app.route({
      method: call.method,
      url: call.path,
      config: { call },
      handler: async (request, reply) => {
        const raw = (paramsInQuery(call.method) ? request.query : request.body) ?? {};
        // A text/plain body, a JSON string or array: not a form, so for a checked call not an envelope either.
        if (typeof raw !== 'object' || Array.isArray(raw)) return sendResult(reply, call, ResultCode.Error, refusedInput(call), null, 400);
        let input: unknown = raw;
        if (call.checked) {
          const opened = openRequest(raw as Record<string, unknown>, undefined, serverEnvelopeKeys);
          if (!opened.ok) {
            request.log.info({ call: call.id, reason: opened.reason }, 'envelope rejected');
            return sendResult(reply, call, ResultCode.Error, MSG.envelopeRejected, null, 400);
          }
          input = opened.value;
        }

        let user: SessionUser | null = null;
        if (call.auth === 'operator') {
          const key = request.headers[OPERATOR_KEY_HEADER];
          if (!isLoopback(request.ip) || typeof key !== 'string' || !keysEqual(key, this.deps.operatorKey)) {
            return sendResult(reply, call, ResultCode.Error, '需要运维密钥，且只能在本机调用', null, 403);
          }
        } else if (call.auth !== 'none') {
          const token = request.headers[TOKEN_HEADER];
          user = typeof token === 'string' && token ? await this.deps.authenticate(token) : null;
          if (!user && call.auth === 'user') return sendResult(reply, call, ResultCode.SessionExpired, MSG.sessionExpired, null);
        }

        const parsed = call.request.safeParse(input);
        if (!parsed.success) return sendResult(reply, call, ResultCode.Error, validationMessage(parsed.error), null);

        try {
          const ctx = { params: parsed.data, user, ip: request.ip, request, reply } as CallContext<C>;
          const guard = this.guards.get(call.id) as CallGuard<C> | undefined;
          const result = await (guard ? guard(ctx, () => handler(ctx)) : handler(ctx));
          if (reply.sent) return reply;
          const [data, msg] = result instanceof WithMessage ? [result.data, result.msg] : [result, MSG.ok];
          const shared = call.checked && msg === MSG.ok && typeof data === 'object' && data !== null && Object.isFrozen(data);
          const reused = shared ? this.sealedReplies.get(data) : undefined;
          if (reused) return sendBody(reply, ResultCode.Ok, reused);
          const checked = call.response.safeParse(data);
          if (!checked.success) {
            request.log.error({ call: call.id, issues: checked.error.issues }, 'reply does not match the contract');
            return sendResult(reply, call, ResultCode.Error, MSG.serverError, null, 500);
          }
          if (shared) {
            const body = this.sealedReplies.put(data, sealReply(ResultCode.Ok, msg, checked.data, undefined, serverEnvelopeKeys));
            return sendBody(reply, ResultCode.Ok, body);
          }
          return sendResult(reply, call, ResultCode.Ok, msg, checked.data);
        } catch (err) {
          if (err instanceof ApiError) return sendResult(reply, call, err.code, err.message, null);
          request.log.error({ call: call.id, err }, 'call failed');
          return sendResult(reply, call, ResultCode.Error, MSG.serverError, null, 500);
        }
      },
    });
  }

  /**
   * Runs a call as `user` through its other door (the public API, issue 34): the same request schema, guard, handler
   * and reply check as over HTTP, without the envelope. Refusals throw ApiError with the call's own message. A job
   * invokes without a request: only calls whose handlers read neither request nor reply (lists, reads).
   */
  async invoke<C extends CallDef>(call: C, input: unknown, user: SessionUser, http?: { request: FastifyRequest; reply: FastifyReply }): Promise<CallResponse<C>> {
    const handler = this.handlers.get(call.id) as CallHandler<C> | undefined;
    if (!handler) throw new Error(`call ${call.id} has no handler to invoke`);
    const parsed = call.request.safeParse(input);
    if (!parsed.success) throw new ApiError(validationMessage(parsed.error));
    const ctx = { params: parsed.data, user, ip: http?.request.ip ?? '', request: http?.request, reply: http?.reply } as CallContext<C>;
    const guard = this.guards.get(call.id) as CallGuard<C> | undefined;
    const result = await (guard ? guard(ctx, () => handler(ctx)) : handler(ctx));
    const data = result instanceof WithMessage ? result.data : result;
    const checked = call.response.safeParse(data);
    if (!checked.success) throw new Error(`reply of ${call.id} does not match the contract`);
    return checked.data as CallResponse<C>;
  }

  /** Wraps a call's handler, whichever feature registers it (one guard a call). */
  guard<C extends CallDef>(call: C, guard: CallGuard<C>): void {
    if (this.guards.has(call.id)) throw new Error(`call ${call.id} has two guards`);
    this.guards.set(call.id, guard as unknown as CallGuard<CallDef>);
  }

  /** A call served by a route of its own (multipart bodies, streams): the router must not register it. */
  handledElsewhere(call: CallDef, owner = SERVER_OWNER): void {
    this.claim(call, owner);
  }

  private claim(call: CallDef, owner: string): void {
    if (this.handled.has(call.id)) throw new Error(`call ${call.id} has two handlers`);
    this.handled.add(call.id);
    this.owners.set(call.id, owner);
  }

  /**
   * The router as feature `name` registers through: a call of another group is refused (ForeignCallError), so a
   * feature named `avatars` answers `avatars.*` and nothing else. A guard may wrap any group's call: it adds a check
   * around a call another feature answers (the account feature's attempt limits on registration by code).
   */
  forFeature(name: string): FeatureRouter {
    const own = <C extends CallDef>(call: C): C => {
      if (callGroup(call) !== name) throw new ForeignCallError(name, call);
      return call;
    };
    return {
      handle: (call, handler) => this.handle(own(call), handler, name),
      handledElsewhere: (call) => this.handledElsewhere(own(call), name),
      guard: (call, guard) => this.guard(call, guard),
      invoke: (call, input, user, http) => this.invoke(call, input, user, http),
    };
  }

  /** Who answers each call registered so far (call id → feature name or SERVER_OWNER). */
  answeredBy(): ReadonlyMap<string, string> {
    return this.owners;
  }

  /** Every call of the catalogue has its handler (checked at start, as the jobs' handlers are): a call without its feature is a bug, not a 404. */
  assertAllAnswered(): void {
    const missing = ALL_CALLS.filter((c) => !this.handled.has(c.id)).map((c) => c.id);
    if (missing.length > 0) throw new Error(`calls of the catalogue without a handler: ${missing.join(', ')}`);
  }
}

/** What a request that is not even a form gets: the envelope's one message where the call is checked. */
const refusedInput = (call: CallDef | undefined) => (call?.checked ? MSG.envelopeRejected : MSG.badRequest);

/** HTTP status of Node's own refusals before any route runs (over-long request line or headers, timeouts). */
const CLIENT_ERROR_STATUS: Record<string, number> = { HPE_HEADER_OVERFLOW: 431, ERR_HTTP_REQUEST_TIMEOUT: 408 };

/**
 * Node's parser refuses some requests before Fastify routes them (a query string over ~16 kB is the usual one) and
 * would answer in its own JSON: this answers in the contract's shape, unsealed as for any request not yet routed.
 */
export function contractClientErrorHandler(err: Error & { code?: string }, socket: import('node:net').Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const status = CLIENT_ERROR_STATUS[err.code ?? ''] ?? 400;
  const body = JSON.stringify({ code: ResultCode.Error, msg: MSG.envelopeRejected, data: null });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nCache-Control: no-store\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

/** Maps Fastify's own failures (oversized body, bad content type, broken JSON) onto the result codes. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: Error & { statusCode?: number; code?: string }, request, reply) => {
    const call = request.routeOptions.config?.call;
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status >= 500) request.log.error({ err }, 'request failed');
    else request.log.info({ code: err.code, status }, 'request refused');
    const msg = status >= 500 ? MSG.serverError : refusedInput(call);
    return sendResult(reply, call, ResultCode.Error, msg, null, status);
  });
  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/')) return sendResult(reply, undefined, ResultCode.Error, MSG.notFound, null, 404);
    return reply.status(404).type('text/plain; charset=utf-8').send('Not found');
  });
}
