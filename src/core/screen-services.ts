import { inject, injectable } from 'inversify';
import { TOKENS, type ApiClient, type AuthService, type Navigation, type Notifier, type PollingService, type ScreenServices, type Storage, type TokenStore } from './tokens';

/** The workbench's singletons, gathered once so a plugin's state service takes them as one constructor argument. */
@injectable()
export class CoreScreenServices implements ScreenServices {
  constructor(
    @inject(TOKENS.ApiClient) readonly api: ApiClient,
    @inject(TOKENS.Notifier) readonly notifier: Notifier,
    @inject(TOKENS.AuthService) readonly auth: AuthService,
    @inject(TOKENS.Navigation) readonly navigation: Navigation,
    @inject(TOKENS.PollingService) readonly polling: PollingService,
    @inject(TOKENS.Storage) readonly storage: Storage,
    @inject(TOKENS.TokenStore) readonly tokens: TokenStore,
  ) {}
}
