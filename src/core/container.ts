import 'reflect-metadata';
import { Container, ContainerModule } from 'inversify';
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

/** The core services every plugin may use. Each is a singleton of the workbench. */
export const coreModule = new ContainerModule(({ bind }) => {
  bind(TOKENS.Storage).toConstantValue(new LocalStorageService());
  bind(TOKENS.Notifier).to(ToastNotifier).inSingletonScope();
  bind(TOKENS.Navigation).to(HashNavigation).inSingletonScope();
  bind(TOKENS.TokenStore).to(LocalTokenStore).inSingletonScope();
  bind(TOKENS.ApiClient).to(HttpApiClient).inSingletonScope();
  bind(TOKENS.AuthService).to(SessionAuthService).inSingletonScope();
  bind(TOKENS.SiteService).to(RemoteSiteService).inSingletonScope();
  bind(TOKENS.ThemeService).to(PersistedThemeService).inSingletonScope();
  bind(TOKENS.PollingService).toConstantValue(new RxPollingService());
  bind(TOKENS.UploadService).to(DirectUploadService).inSingletonScope();
  bind(TOKENS.CommandRegistry).to(DefaultCommandRegistry).inSingletonScope();
  bind(TOKENS.PanelRegistry).to(DefaultPanelRegistry).inSingletonScope();
  bind(TOKENS.RouteRegistry).to(DefaultRouteRegistry).inSingletonScope();
  bind(TOKENS.ScriptEditorState).to(ScriptEditorState).inSingletonScope();
  bind(TOKENS.ScreenServices).to(CoreScreenServices).inSingletonScope();
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
