import { describe, expect, it, vi } from 'vitest';
import { BehaviorSubject } from 'rxjs';
import { API, LOGIN_ROUTE, MSG, type CallDef, type Profile, type Space } from '../../contract';
import { ApiCallError, type ApiClient, type AuthService, type Navigation, type Notifier } from '../../core';
import { CreditsActions } from './credits-actions';
import { CreditsStore } from './credits-state';

const PROFILE: Profile = { username: '13800000000', avatar: '', expire_time: '', is_tourist: 0, credits: 100 };
const SPACE: Space = { used: 0, total: 1024, total_format: '1GB', can_expand: 1 };

function setup(options: { profile?: Profile; replies?: Record<string, unknown | Error> } = {}) {
  const replies = options.replies ?? {};
  const calls: { id: string; params: unknown }[] = [];
  const api: ApiClient = {
    call: vi.fn(async (call: CallDef, params?: unknown) => {
      calls.push({ id: call.id, params });
      const reply = replies[call.id];
      if (reply instanceof Error) throw reply;
      return reply as never;
    }) as ApiClient['call'],
  };
  const profile$ = new BehaviorSubject<Profile | null>(options.profile ?? PROFILE);
  const auth = { profile$, refreshProfile: vi.fn(async () => undefined) } as unknown as AuthService;
  const navigation = { navigate: vi.fn() } as unknown as Navigation;
  const notifier: Notifier = { success: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
  const store = new CreditsStore();
  const actions = new CreditsActions(api, auth, navigation, notifier, store);
  return { actions, api, calls, auth, navigation, notifier, store };
}

describe('redeem', () => {
  it('sends the code exactly as typed, toasts both messages, refreshes the profile and closes', async () => {
    const t = setup({ replies: { [API.credits.cdkey.id]: { credits: 100 } } });
    t.actions.openRedeem();
    expect(t.store.redeemOpen$.value).toBe(true);
    const changed = vi.fn();
    t.store.changed$.subscribe(changed);
    expect(await t.actions.redeem('  abc ')).toBe(true);
    expect(t.calls).toEqual([{ id: 'credits.cdkey', params: { code: '  abc ' } }]);
    expect(t.notifier.success).toHaveBeenNthCalledWith(1, MSG.redeemSucceeded);
    expect(t.notifier.success).toHaveBeenNthCalledWith(2, MSG.redeemedCredits(100));
    expect(t.auth.refreshProfile).toHaveBeenCalled();
    expect(t.store.redeemOpen$.value).toBe(false);
    expect(changed).toHaveBeenCalledTimes(1);
  });

  it('keeps the dialog open when the server refuses (it toasted the reason)', async () => {
    const t = setup({ replies: { [API.credits.cdkey.id]: new ApiCallError(MSG.codeInvalid, 1) } });
    t.actions.openRedeem();
    expect(await t.actions.redeem('')).toBe(false);
    expect(t.calls).toHaveLength(1);
    expect(t.store.redeemOpen$.value).toBe(true);
    expect(t.notifier.success).not.toHaveBeenCalled();
  });

  it('sends a guest to registration instead', () => {
    const t = setup({ profile: { ...PROFILE, is_tourist: 1 } });
    t.actions.openRedeem();
    expect(t.store.redeemOpen$.value).toBe(false);
    expect(t.navigation.navigate).toHaveBeenCalledWith(LOGIN_ROUTE, { state: '2' });
  });
});

describe('space expansion', () => {
  it('asks first; cancelling says 已取消扩容 and spends nothing', async () => {
    const t = setup({ replies: { [API.credits.space.id]: SPACE } });
    await t.actions.requestExpand();
    expect(t.store.expandOpen$.value).toBe(true);
    t.actions.cancelExpand();
    expect(t.store.expandOpen$.value).toBe(false);
    expect(t.notifier.info).toHaveBeenCalledWith(MSG.spaceExpandCancelled);
    expect(t.calls.map((c) => c.id)).toEqual(['credits.space']);
  });

  it('confirmed: expands, says 操作成功！, refreshes space and profile', async () => {
    const bigger = { ...SPACE, total: 6144, total_format: '6GB' };
    const t = setup({ replies: { [API.credits.space.id]: bigger, [API.credits.spaceExpand.id]: bigger } });
    t.store.expandOpen$.next(true);
    expect(await t.actions.confirmExpand()).toBe(true);
    expect(t.notifier.success).toHaveBeenCalledWith(MSG.ok);
    expect(t.store.expandOpen$.value).toBe(false);
    expect(t.store.space$.value).toEqual({ state: 'ok', value: bigger });
    expect(t.auth.refreshProfile).toHaveBeenCalled();
  });

  it('at the cap says so without asking; a guest is told to register', async () => {
    const t = setup({ replies: { [API.credits.space.id]: { ...SPACE, can_expand: 0 } } });
    await t.actions.requestExpand();
    expect(t.store.expandOpen$.value).toBe(false);
    expect(t.notifier.warn).toHaveBeenCalledWith(MSG.spaceExpandAtLimit);

    const g = setup({ profile: { ...PROFILE, is_tourist: 1 } });
    await g.actions.requestExpand();
    expect(g.notifier.warn).toHaveBeenCalledWith(MSG.guestCannotExpand);
    expect(g.calls).toHaveLength(0);
  });

  it('keeps the server message when space cannot be read', async () => {
    const t = setup({ replies: { [API.credits.space.id]: new ApiCallError(MSG.comingSoon, 1) } });
    expect(await t.actions.loadSpace()).toBeNull();
    expect(t.store.space$.value).toEqual({ state: 'error', message: MSG.comingSoon });
  });
});

describe('notices', () => {
  it('loads the list, opens one (closing the centre) and marks it read locally', async () => {
    const list = [
      { id: 2, title: 'b', desc: '', create_time: '2026-11-21 10:00:00', read: 0 as const },
      { id: 1, title: 'a', desc: '', create_time: '2026-11-20 10:00:00', read: 0 as const },
    ];
    const t = setup({ replies: { [API.notice.list.id]: { list } } });
    t.actions.openNoticeCentre();
    await vi.waitFor(() => expect(t.store.notices$.value.state).toBe('ok'));
    expect(t.store.noticeCentreOpen$.value).toBe(true);
    t.actions.openNotice(1);
    expect(t.store.noticeCentreOpen$.value).toBe(false);
    expect(t.store.noticeDetail$.value).toBe(1);
    t.actions.markRead(1);
    const now = t.store.notices$.value;
    expect(now.state === 'ok' && now.value.map((n) => n.read)).toEqual([0, 1]);
  });
});

describe('points rules and following notices', () => {
  it('asks for the rules once they are read, again after a failure, never twice at once', async () => {
    let fail = true;
    const t = setup({ replies: {} });
    (t.api.call as ReturnType<typeof vi.fn>).mockImplementation(async (call: CallDef) => {
      t.calls.push({ id: call.id, params: {} });
      if (fail) throw new ApiCallError('服务器繁忙', 1);
      return { content: '<p>规则</p>' } as never;
    });
    await t.actions.loadRule();
    expect(t.store.rule$.value).toEqual({ state: 'error', message: '服务器繁忙' });
    fail = false;
    const first = t.actions.loadRule();
    const second = t.actions.loadRule();
    await Promise.all([first, second]);
    expect(t.store.rule$.value).toEqual({ state: 'ok', value: '<p>规则</p>' });
    await t.actions.loadRule();
    expect(t.calls.map((c) => c.id)).toEqual(['credits.rule', 'credits.rule']);
  });

  it('loads the notices at once and whenever the page becomes visible again, until unsubscribed', async () => {
    const t = setup({ replies: { [API.notice.list.id]: { list: [] } } });
    const sub = t.actions.followNotices();
    document.dispatchEvent(new Event('visibilitychange'));
    sub.unsubscribe();
    document.dispatchEvent(new Event('visibilitychange'));
    await vi.waitFor(() => expect(t.store.notices$.value.state).toBe('ok'));
    expect(t.calls.map((c) => c.id)).toEqual(['notice.list', 'notice.list']);
  });
});

describe('commands', () => {
  it('are namespaced credits.* in the 积分 section, and only 打开公告 has keys', () => {
    const { actions } = setup();
    const commands = actions.commands();
    expect(commands.map((c) => c.id)).toEqual(['credits.redeem', 'credits.expandSpace', 'credits.notices', 'credits.consum']);
    expect(commands.every((c) => c.section === '积分')).toBe(true);
    expect(commands.filter((c) => c.keys).map((c) => c.keys)).toEqual([['g n']]);
  });
});
