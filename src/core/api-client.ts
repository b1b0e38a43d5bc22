import { inject, injectable } from 'inversify';
import {
  LIMITS, LOGIN_ROUTE, MSG, ResultCode, TOKEN_HEADER, openReply, paramsInQuery, sealRequest,
  type CallDef, type CallRequest, type CallResponse,
} from '../contract';
import { TOKENS, type ApiClient, type CallOptions, type Navigation, type Notifier, type TokenStore } from './tokens';

/** A call that ended with a non-zero code (already toasted unless `silent`). */
export class ApiCallError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

type Fetch = typeof fetch;

/**
 * Code 100 (part 2 §6): forget the token and go to /login with the way back (toasting only when there was a
 * session to lose). Every caller that meets code 100 — the API client, the direct upload — goes through here.
 */
export function expireSession(deps: { tokens: TokenStore; notifier: Notifier; navigation: Navigation }, message: string): void {
  const hadToken = deps.tokens.get() !== null;
  deps.tokens.clear();
  const here = deps.navigation.current;
  if (here.path === LOGIN_ROUTE) return;
  if (hadToken) deps.notifier.warn(message || MSG.sessionExpired);
  deps.navigation.navigate(LOGIN_ROUTE, { redirectUrl: deps.navigation.href(here) });
}

/**
 * Calls by contract entry: seals checked calls, adds the token header, times out after 30 s,
 * toasts code 1, and on code 100 clears the token and sends the user to /login with a way back.
 */
@injectable()
export class HttpApiClient implements ApiClient {
  constructor(
    @inject(TOKENS.TokenStore) private readonly tokens: TokenStore,
    @inject(TOKENS.Notifier) private readonly notifier: Notifier,
    @inject(TOKENS.Navigation) private readonly navigation: Navigation,
    private readonly fetchImpl: Fetch = (...args) => fetch(...args),
    private readonly baseUrl = '',
  ) {}

  async call<C extends CallDef>(call: C, params?: CallRequest<C>, options: CallOptions = {}): Promise<CallResponse<C>> {
    const fields: Record<string, string> = call.checked
      ? sealRequest(params ?? {})
      : Object.fromEntries(Object.entries((params ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]));
    const form = new URLSearchParams(fields);
    const inQuery = paramsInQuery(call.method);
    const url = `${this.baseUrl}${call.path}${inQuery ? `?${form}` : ''}`;
    const headers: Record<string, string> = {};
    const token = this.tokens.get();
    if (token) headers[TOKEN_HEADER] = token;
    if (!inQuery) headers['content-type'] = 'application/x-www-form-urlencoded';

    const timeout = AbortSignal.timeout(LIMITS.requestTimeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;

    let body: Record<string, unknown>;
    try {
      const res = await this.fetchImpl(url, { method: call.method, headers, body: inQuery ? undefined : form, signal });
      body = (await res.json()) as Record<string, unknown>;
    } catch (err) {
      if (options.signal?.aborted) throw err;
      return this.fail(MSG.networkError, ResultCode.Error, options);
    }

    let reply = body as { code: number; msg: string; data: unknown };
    if (call.checked && typeof body.sign === 'string') {
      const opened = openReply(body);
      if (!opened.ok) return this.fail(MSG.envelopeRejected, ResultCode.Error, options);
      reply = opened.value;
    }
    if (reply.code === ResultCode.Ok) return reply.data as CallResponse<C>;
    if (reply.code === ResultCode.SessionExpired) {
      expireSession({ tokens: this.tokens, notifier: this.notifier, navigation: this.navigation }, reply.msg);
      throw new ApiCallError(reply.msg || MSG.sessionExpired, ResultCode.SessionExpired);
    }
    return this.fail(reply.msg || MSG.serverError, reply.code, options);
  }

  private fail(message: string, code: number, options: CallOptions): never {
    if (!options.silent) this.notifier.error(message);
    throw new ApiCallError(message, code);
  }
}
