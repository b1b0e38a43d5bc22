import { inject, injectable } from 'inversify';
import { BehaviorSubject, distinctUntilChanged, map, type Observable } from 'rxjs';
import { API, type Profile } from '../contract';
import { forgetUserData, claimUserData } from './draft-store';
import { TOKENS, type ApiClient, type AuthService, type Storage, type TokenStore } from './tokens';

@injectable()
export class SessionAuthService implements AuthService {
  private readonly profile = new BehaviorSubject<Profile | null>(null);
  readonly profile$: Observable<Profile | null> = this.profile.asObservable();
  readonly loggedIn$: Observable<boolean>;

  constructor(
    @inject(TOKENS.ApiClient) private readonly api: ApiClient,
    @inject(TOKENS.TokenStore) private readonly tokens: TokenStore,
    @inject(TOKENS.Storage) private readonly storage: Storage,
  ) {
    this.loggedIn$ = tokens.token$.pipe(map(Boolean), distinctUntilChanged());
    tokens.token$.subscribe((token) => {
      if (!token) this.profile.next(null);
    });
  }

  async login(username: string, password: string, captcha?: { captcha_id: string; captcha: string }): Promise<void> {
    const { token } = await this.api.call(API.account.login, { username, password, client: 'pc', ...captcha }, { silent: true });
    claimUserData(this.storage, username.trim());
    this.tokens.set(token);
    await this.refreshProfile().catch(() => undefined);
  }

  async logout(): Promise<void> {
    try {
      if (this.tokens.get()) await this.api.call(API.account.logout, {}, { silent: true });
    } finally {
      forgetUserData(this.storage);
      this.tokens.clear();
    }
  }

  async changePassword(input: { old_password: string; password: string; confirm: string }): Promise<void> {
    await this.api.call(API.account.changePassword, input);
    // The server revoked every session of the account; forget ours too.
    this.tokens.clear();
  }

  async refreshProfile(): Promise<void> {
    if (!this.tokens.get()) return;
    this.profile.next(await this.api.call(API.account.profile, {}, { silent: true }));
  }

  expire(): void {
    this.tokens.clear();
  }
}
