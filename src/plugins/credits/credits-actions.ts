import { inject, injectable } from 'inversify';
import { filter, fromEvent, startWith, type Subscription } from 'rxjs';
import { API, LIMITS, LOGIN_ROUTE, MSG, ResultCode, type Profile, type Space } from '../../contract';
import {
  ApiCallError, TOKENS, commandTable, type ApiClient, type AuthService, type Command, type CommandContribution, type Navigation, type Notifier,
} from '../../core';
import { CreditsStoreToken, type CreditsStore } from './credits-state';

const message = (err: unknown) => (err instanceof Error && err.message ? err.message : MSG.serverError);

/**
 * Everything the credits plugin does, shared by its buttons, dialogs, panels and commands: redeem a code,
 * expand space, load space and notices. Guests (is_tourist = 1) are sent to registration to redeem and
 * cannot expand (part 1 §6).
 */
@injectable()
export class CreditsActions implements CommandContribution {
  private profile: Profile | null = null;

  constructor(
    @inject(TOKENS.ApiClient) private readonly api: ApiClient,
    @inject(TOKENS.AuthService) private readonly auth: AuthService,
    @inject(TOKENS.Navigation) private readonly navigation: Navigation,
    @inject(TOKENS.Notifier) private readonly notifier: Notifier,
    @inject(CreditsStoreToken) private readonly store: CreditsStore,
  ) {
    auth.profile$.subscribe((p) => (this.profile = p));
  }

  get isGuest(): boolean {
    return this.profile?.is_tourist === 1;
  }

  // ---- redeem

  /** The 兑换 buttons and the command: the code dialog, or registration for a guest. */
  openRedeem(): void {
    if (this.isGuest) {
      this.navigation.navigate(LOGIN_ROUTE, { state: '2' });
      return;
    }
    this.store.redeemOpen$.next(true);
  }

  closeRedeem(): void {
    this.store.redeemOpen$.next(false);
  }

  /** Sends the code as typed (never validated here, part 1 §5); true when redeemed. */
  async redeem(code: string): Promise<boolean> {
    try {
      const { credits } = await this.api.call(API.credits.cdkey, { code });
      this.notifier.success(MSG.redeemSucceeded);
      this.notifier.success(MSG.redeemedCredits(credits));
      this.closeRedeem();
      await this.auth.refreshProfile().catch(() => undefined);
      this.store.changed$.next();
      return true;
    } catch {
      return false; // the server's message was toasted
    }
  }

  // ---- space

  async loadSpace(): Promise<Space | null> {
    const previous = this.store.space$.value;
    this.store.space$.next({ state: 'loading', value: 'value' in previous ? previous.value : undefined });
    try {
      const space = await this.api.call(API.credits.space, {}, { silent: true });
      this.store.space$.next({ state: 'ok', value: space });
      return space;
    } catch (err) {
      if (err instanceof ApiCallError && err.code === ResultCode.SessionExpired) return null;
      this.store.space$.next({ state: 'error', message: message(err) });
      return null;
    }
  }

  /** 扩容: the confirmation, unless the account is a guest or already at the cap. */
  async requestExpand(): Promise<void> {
    if (this.isGuest) {
      this.notifier.warn(MSG.guestCannotExpand);
      return;
    }
    const current = this.store.space$.value;
    const space = current.state === 'ok' ? current.value : await this.loadSpace();
    if (space && space.can_expand === 0) {
      this.notifier.warn(MSG.spaceExpandAtLimit);
      return;
    }
    this.store.expandOpen$.next(true);
  }

  cancelExpand(): void {
    this.store.expandOpen$.next(false);
    this.notifier.info(MSG.spaceExpandCancelled);
  }

  /** Confirmed: the server spends the credits and grows the quota, or says why not (at the cap, not enough credits). */
  async confirmExpand(): Promise<boolean> {
    try {
      const space = await this.api.call(API.credits.spaceExpand, {});
      this.notifier.success(MSG.ok);
      this.store.space$.next({ state: 'ok', value: space });
      return true;
    } catch {
      return false;
    } finally {
      this.store.expandOpen$.next(false);
      await Promise.all([this.loadSpace(), this.auth.refreshProfile().catch(() => undefined)]);
      this.store.changed$.next();
    }
  }

  // ---- notices

  async loadNotices(): Promise<void> {
    const previous = this.store.notices$.value;
    this.store.notices$.next({ state: 'loading', value: 'value' in previous ? previous.value : undefined });
    try {
      const { list } = await this.api.call(API.notice.list, {}, { silent: true });
      this.store.notices$.next({ state: 'ok', value: list });
    } catch (err) {
      if (err instanceof ApiCallError && err.code === ResultCode.SessionExpired) return;
      this.store.notices$.next({ state: 'error', message: message(err) });
    }
  }

  /** Loads the notices now, and again whenever the page comes back into view (new notices, reads elsewhere). */
  followNotices(): Subscription {
    return fromEvent(document, 'visibilitychange')
      .pipe(
        filter(() => document.visibilityState === 'visible'),
        startWith(null),
      )
      .subscribe(() => void this.loadNotices());
  }

  openNoticeCentre(): void {
    this.store.noticeCentreOpen$.next(true);
    void this.loadNotices();
  }

  openNotice(id: number): void {
    this.store.noticeCentreOpen$.next(false);
    this.store.noticeDetail$.next(id);
  }

  closeNotice(): void {
    this.store.noticeDetail$.next(null);
  }

  /** The server marked it read when it sent the detail; the list follows without another request. */
  markRead(id: number): void {
    const current = this.store.notices$.value;
    if (current.state !== 'ok') return;
    this.store.notices$.next({ state: 'ok', value: current.value.map((n) => (n.id === id ? { ...n, read: 1 } : n)) });
  }

  // ---- points rules

  /** The points popover opens: its rules are asked for unless they are on the way or already read. */
  async loadRule(): Promise<void> {
    const current = this.store.rule$.value.state;
    if (current === 'loading' || current === 'ok') return;
    this.store.rule$.next({ state: 'loading' });
    try {
      const { content } = await this.api.call(API.credits.rule, {}, { silent: true });
      this.store.rule$.next({ state: 'ok', value: content });
    } catch (err) {
      this.store.rule$.next({ state: 'error', message: message(err) });
    }
  }

  // ---- commands

  commands(): Command[] {
    return commandTable('积分', [
      ['credits.redeem', '兑换积分', 'exchange', 'redeem code cdkey credits points 兑换 兑换码 积分 充值', () => this.openRedeem()],
      ['credits.expandSpace', '扩容空间', 'database', `space storage expand quota 扩容 空间 存储 ${LIMITS.spaceExpandGb}GB`, () => this.requestExpand()],
      ['credits.notices', '打开公告', 'notifications', 'notice announcement news 公告 通知 消息', () => this.openNoticeCentre(), ['g n']],
      ['credits.consum', '消费中心', 'timeline-bar-chart', 'consumption usage log credits 消费 明细 积分 记录', () => this.navigation.navigate('/consum')],
    ]);
  }
}
