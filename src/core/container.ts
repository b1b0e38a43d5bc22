import 'reflect-metadata';
import { Container, ContainerModule, type Newable } from 'inversify';
import { TOKENS, type CommandRegistry, type HostInfo } from './tokens';
import type { CommandContribution, WorkbenchPlugin } from './plugin';
import { LocalStorageService } from './storage';
import { ToastNotifier } from './notifier';
import { HashNavigation } from './navigation';
import { LocalTokenStore } from './token-store';
import { HttpApiClient } from './api-client';
import { SessionAuthService } from './auth-service';
import { RemoteSiteService } from './site-service';
import { PersistedThemeService } from './theme-service';
import { RxPollingService } from './polling-service';
import { DefaultCommandRegistry } from './command-registry';
import { DefaultPanelRegistry, DefaultRouteRegistry } from './registries';
import { DirectUploadService } from './upload-service';
import { ScriptEditorState } from './script-editor/editor-state';
import { CoreScreenServices } from './screen-services';

/** The core services every plugin may use, by token. Each is a singleton of the workbench. */
const SINGLETONS: [symbol, Newable][] = [
  [TOKENS.Notifier, ToastNotifier],
  [TOKENS.Navigation, HashNavigation],
  [TOKENS.TokenStore, LocalTokenStore],
  [TOKENS.ApiClient, HttpApiClient],
  [TOKENS.AuthService, SessionAuthService],
  [TOKENS.SiteService, RemoteSiteService],
  [TOKENS.ThemeService, PersistedThemeService],
  [TOKENS.UploadService, DirectUploadService],
  [TOKENS.CommandRegistry, DefaultCommandRegistry],
  [TOKENS.PanelRegistry, DefaultPanelRegistry],
  [TOKENS.RouteRegistry, DefaultRouteRegistry],
  [TOKENS.ScriptEditorState, ScriptEditorState],
  [TOKENS.ScreenServices, CoreScreenServices],
];

export const coreModule = new ContainerModule(({ bind }) => {
  bind(TOKENS.Storage).toConstantValue(new LocalStorageService());
  bind(TOKENS.PollingService).toConstantValue(new RxPollingService());
  for (const [token, service] of SINGLETONS) bind(token).to(service).inSingletonScope();
});

/**
 * Builds the workbench container: core, then each plugin's module. Resolves the registries at once,
 * so a duplicate panel or command id fails here, at start-up, not when a user opens it.
 */
export function createWorkbenchContainer(plugins: readonly WorkbenchPlugin[], host: HostInfo, extra: ContainerModule[] = []): Container {
  const ids = new Set<string>();
  for (const p of plugins) {
    if (ids.has(p.id)) throw new Error(`duplicate plugin id "${p.id}"`);
    ids.add(p.id);
  }
  // Interpreted resolution: inversify's compiled resolvers use `new Function`, which the app's CSP (script-src 'self') forbids.
  const container = new Container({ jitless: true });
  container.load(coreModule);
  container.bind(TOKENS.HostInfo).toConstantValue(host);
  container.load(...extra, ...plugins.map((p) => p.module));

  container.get(TOKENS.PanelRegistry);
  container.get(TOKENS.RouteRegistry);
  const registry = container.get<CommandRegistry>(TOKENS.CommandRegistry);
  for (const contribution of container.getAll<CommandContribution>(TOKENS.CommandContribution, { optional: true })) {
    for (const command of contribution.commands()) registry.register(command);
  }
  return container;
}
