import { describe, expect, it, vi } from 'vitest';
import { BehaviorSubject } from 'rxjs';
import { API, MSG, sealReply, openRequest, TOKEN_HEADER } from '../contract';
import { HttpApiClient, ApiCallError } from './api-client';
import type { Location, Navigation, Notifier, TokenStore } from './tokens';

function setup(reply: (url: string, init: RequestInit) => unknown) {
  const token = new BehaviorSubject<string | null>('tok');
  const tokens: TokenStore = { token$: token, get: () => token.value, set: (t) => token.next(t), clear: () => token.next(null) };
  const notifier: Notifier = { success: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
  const current: Location = { path: '/works', query: { type1: '1' } };
  const navigation = { location$: new BehaviorSubject(current), current, navigate: vi.fn(), href: () => '/works?type1=1' } as unknown as Navigation;
  const seen: { url: string; init: RequestInit }[] = [];
  const fetchImpl = vi.fn(async (url: string, init: RequestInit) => {
    seen.push({ url, init });
    const body = reply(url, init);
    if (body instanceof Error) throw body;
    return new Response(JSON.stringify(body));
  }) as unknown as typeof fetch;
  return { client: new HttpApiClient(tokens, notifier, navigation, fetchImpl), tokens, notifier, navigation, seen };
}

describe('ApiClient', () => {
  it('seals a POST into the form body, sends the token header, and opens the reply', async () => {
    const { client, seen } = setup(() => sealReply(0, 'ok', { token: 'new' }));
    const data = await client.call(API.account.login, { username: 'u', password: 'p', client: 'pc' });
    expect(data).toEqual({ token: 'new' });
    const init = seen[0]!.init;
    expect((init.headers as Record<string, string>)[TOKEN_HEADER]).toBe('tok');
    const fields = Object.fromEntries(new URLSearchParams(String(init.body)));
    expect(openRequest(fields)).toEqual({ ok: true, value: { username: 'u', password: 'p', client: 'pc' } });
  });

  it('puts GET parameters in the query string', async () => {
    const { client, seen } = setup(() => sealReply(0, 'ok', { title: 't', content: 'c' }));
    await client.call(API.site.protocol, { type: 'user' });
    expect(seen[0]!.url).toMatch(/^\/api\/protocol2\?check=1&/);
    expect(seen[0]!.init.body).toBeUndefined();
  });

  it('toasts code 1 and throws; silent calls do not toast', async () => {
    const { client, notifier } = setup(() => sealReply(1, '原密码错误', null));
    await expect(client.call(API.account.profile, {})).rejects.toThrow(ApiCallError);
    expect(notifier.error).toHaveBeenCalledWith('原密码错误');
    await expect(client.call(API.account.profile, {}, { silent: true })).rejects.toThrow('原密码错误');
    expect(notifier.error).toHaveBeenCalledTimes(1);
  });

  it('on code 100 shows the message, clears the token and goes to /login with the way back', async () => {
    const { client, notifier, tokens, navigation } = setup(() => sealReply(100, MSG.sessionExpired, null));
    await expect(client.call(API.account.profile, {})).rejects.toMatchObject({ code: 100 });
    expect(tokens.get()).toBeNull();
    expect(notifier.warn).toHaveBeenCalledWith(MSG.sessionExpired);
    expect(navigation.navigate).toHaveBeenCalledWith('/login', { redirectUrl: '/works?type1=1' });
  });

  it('turns a network failure into the network message', async () => {
    const { client, notifier } = setup(() => new TypeError('fetch failed'));
    await expect(client.call(API.site.site, {})).rejects.toThrow(MSG.networkError);
    expect(notifier.error).toHaveBeenCalledWith(MSG.networkError);
  });

  it('refuses a reply whose signature does not verify', async () => {
    const { client } = setup(() => ({ ...sealReply(0, 'ok', { credits: 1 }), code: 0, sign: '0'.repeat(64) }));
    await expect(client.call(API.account.credits, {}, { silent: true })).rejects.toThrow(MSG.envelopeRejected);
  });
});
