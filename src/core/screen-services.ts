import { inject, injectable } from 'inversify';
import type { Observable } from 'rxjs';
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

/** A screen's state made from the core's services, alive until `closed$` emits or it is disposed. */
type ScreenClass = new (services: ScreenServices, closed$?: Observable<unknown>) => { dispose(): void };

/** For each name, the call that opens that screen's state. */
export type ScreenOpeners<M extends Record<string, ScreenClass>> = { readonly [K in keyof M]: (closed$?: Observable<unknown>) => InstanceType<M[K]> };

/**
 * A plugin's state service that only opens screens: `screenStates({ open: MusicScreen })` is a singleton class whose
 * `open(closed$)` makes a fresh MusicScreen for each open panel (a reopened screen starts afresh), from the
 * workbench's ScreenServices. Put it after the screen classes it names (they are read when the module loads).
 */
export function screenStates<M extends Record<string, ScreenClass>>(screens: M): new (services: ScreenServices) => ScreenOpeners<M> {
  @injectable()
  class ScreenStates {
    constructor(@inject(TOKENS.ScreenServices) services: ScreenServices) {
      for (const [name, Screen] of Object.entries(screens)) Object.defineProperty(this, name, { value: (closed$?: Observable<unknown>) => new Screen(services, closed$) });
    }
  }
  return ScreenStates as unknown as new (services: ScreenServices) => ScreenOpeners<M>;
}
