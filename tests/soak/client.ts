/**
 * The soak's API client: the browser's sealed calls, retried while the connection fails (a process was killed
 * under it), and a tally of every reply that is not a spec reply (code 0, 1 or 100 in a JSON envelope below 500).
 */
import { openReply, paramsInQuery, TOKEN_HEADER, type CallDef, type CallRequest } from '../../src/contract';
import { callFields, type Reply } from '../support/app';

export interface Tally {
  calls: number;
  /** Attempts that met a refused, reset or dropped connection and were sent again. */
  connectionRetries: number;
  /** Replies outside the spec, with what they were. */
  nonSpec: string[];
}

export const newTally = (): Tally => ({ calls: 0, connectionRetries: 0, nonSpec: [] });

const SPEC_CODES = new Set([0, 1, 100]);
const RETRY_FOR_MS = 120_000;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A fetch rejects (TypeError "fetch failed") only when no HTTP reply came: that is what gets retried. */
export async function retryingConnection<T>(tally: Tally, attempt: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + RETRY_FOR_MS;
  for (;;) {
    try {
      return await attempt();
    } catch (err) {
      if (!(err instanceof TypeError) || Date.now() > deadline) throw err;
      tally.connectionRetries++;
      await sleep(150 + Math.random() * 350);
    }
  }
}

/** Same surface as the specs' ApiTestClient (so tests/support/upload.ts drives it), plus retries and the tally. */
export class SoakClient {
  constructor(
    readonly url: string,
    readonly tally: Tally,
    public token?: string,
  ) {}

  async call<C extends CallDef>(call: C, params: CallRequest<C> | Record<string, unknown> = {}, token = this.token): Promise<Reply<any>> {
    return this.raw(call.method, call.path, callFields(call, params), token);
  }

  async raw(method: string, pathname: string, fields: Record<string, string>, token?: string, headers: Record<string, string> = {}): Promise<Reply<any>> {
    this.tally.calls++;
    const form = new URLSearchParams(fields);
    const inQuery = paramsInQuery(method as never);
    const { status, text } = await retryingConnection(this.tally, async () => {
      const res = await fetch(`${this.url}${pathname}${inQuery ? `?${form}` : ''}`, {
        method,
        headers: { ...(token ? { [TOKEN_HEADER]: token } : {}), ...(inQuery ? {} : { 'content-type': 'application/x-www-form-urlencoded' }), ...headers },
        body: inQuery ? undefined : form,
      });
      return { status: res.status, text: await res.text() };
    });
    const reply = this.open(pathname, status, text);
    return reply;
  }

  private open(pathname: string, status: number, text: string): Reply<any> {
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return this.nonSpec(pathname, status, text);
    }
    let reply: Reply<any> = { status, ...(body as { code: number; msg: string; data: unknown }) };
    if (typeof body.sign === 'string') {
      const opened = openReply(body);
      if (!opened.ok) return this.nonSpec(pathname, status, `envelope failed verification: ${opened.reason}`);
      reply = { status, ...opened.value } as Reply;
    }
    if (status >= 500 || !SPEC_CODES.has(reply.code)) return this.nonSpec(pathname, status, text);
    return reply;
  }

  private nonSpec(pathname: string, status: number, text: string): Reply<any> {
    this.tally.nonSpec.push(`${pathname} → HTTP ${status}: ${text.slice(0, 200)}`);
    return { status, code: -1, msg: text.slice(0, 200), data: null };
  }
}
