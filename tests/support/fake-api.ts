import type { CallDef, CallRequest, CallResponse, ChatStreamEvent } from '../../src/contract';
import { afterEach, beforeEach, vi } from 'vitest';
import type { ApiClient, AuthService, Navigation, PollingService, readAnswer, ScreenServices, Storage, TokenStore } from '../../src/core';
import { RxPollingService } from '../../src/core/polling-service';

/** An answer for one call: a value, an Error to throw, or a function of the request that gives either. */
export type Reply = unknown;

export interface FakeApi extends ApiClient {
  /** Every call made, in order: its contract id and request. */
  calls: { id: string; params: unknown }[];
  /** The answers by call id (change them between steps). */
  replies: Record<string, Reply>;
  /** How many times a call was made. */
  count(call: CallDef): number;
}

/**
 * An ApiClient for a state service's unit spec: answers each call from `replies` (a call without one fails with
 * 未设置应答), and writes every call down. Server behaviour itself is tested through real HTTP in server/.
 */
export function fakeApi(replies: Record<string, Reply> = {}): FakeApi {
  const calls: FakeApi['calls'] = [];
  const api: FakeApi = {
    calls,
    replies,
    count: (call) => calls.filter((c) => c.id === call.id).length,
    call: (async <C extends CallDef>(call: C, params?: CallRequest<C>) => {
      calls.push({ id: call.id, params });
      if (!(call.id in api.replies)) throw new Error(`未设置应答：${call.id}`);
      let reply = api.replies[call.id];
      if (typeof reply === 'function') reply = (reply as (p: unknown) => unknown)(params);
      reply = await reply;
      if (reply instanceof Error) throw reply;
      return reply as CallResponse<C>;
    }) as ApiClient['call'],
  };
  return api;
}

/** An AuthService whose refreshProfile (the credits shown after a spend) and expire (code 100) are counted. */
export function fakeAuth(): AuthService & { refreshed: number; expired: number } {
  const auth = {
    refreshed: 0,
    expired: 0,
    refreshProfile: async () => void auth.refreshed++,
    expire: () => void auth.expired++,
  };
  return auth as unknown as AuthService & { refreshed: number; expired: number };
}

/** The product's polling service (rxjs timers: vitest's fake timers drive it). */
export const polling = (): PollingService => new RxPollingService();

/**
 * The core bundle a state service is given (ScreenServices): the parts a spec names, a fake API, session and the
 * product's polling otherwise, and stand-ins that fail loudly when the state reaches for a service the spec did not give.
 */
export function screenServices(parts: Partial<ScreenServices> = {}): ScreenServices {
  return {
    api: fakeApi(),
    auth: fakeAuth(),
    polling: polling(),
    notifier: notGiven('notifier'),
    navigation: notGiven('navigation'),
    storage: notGiven('storage'),
    tokens: notGiven('tokens'),
    ...parts,
  };
}

function notGiven<T>(name: string): T {
  return new Proxy({}, {
    get: (_, key) => {
      throw new Error(`${name}.${String(key)}: this spec gave no ${name}`);
    },
  }) as T;
}

/** Fake timers around each test of the calling suite; `settle(ms)` runs the timers and promises due within ms. */
export function fakeClock(): (ms?: number) => Promise<unknown> {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());
  return (ms = 0) => vi.advanceTimersByTimeAsync(ms);
}

/** An answer stream the test drives: events in, then the end (or a refusal); an abort ends it as fetch would. */
export function fakeAnswerStream() {
  const opened: { url: string; signal: AbortSignal; emit: (e: ChatStreamEvent) => void; end: () => void; fail: (err: Error) => void }[] = [];
  const read: typeof readAnswer = (url, signal, onEvent) =>
    new Promise<void>((resolve, reject) => {
      signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      opened.push({ url, signal, emit: onEvent, end: resolve, fail: reject });
    });
  return { opened, read };
}

/** What a screen that hands text to /create needs: a storage that keeps what is set, a navigation spy, a token. */
export function handOffStubs() {
  const stored: Record<string, unknown> = {};
  const storage = { set: (k: string, v: unknown) => void (stored[k] = v) } as unknown as Storage;
  const navigation = { navigate: vi.fn() } as unknown as Navigation;
  const tokens = { get: () => 'tok' } as unknown as TokenStore;
  return { stored, storage, navigation, tokens };
}
