import { ContainerModule, type Newable } from 'inversify';
import { TOKENS, type Command, type DialogContribution, type PanelContribution, type TopBarContribution } from './tokens';

/** A feature of the workbench: one folder under src/plugins, listed in plugins.manifest.json. */
export interface WorkbenchPlugin {
  id: string;
  module: ContainerModule;
}

/** How a plugin adds commands: a class (with injected services) that lists them. */
export interface CommandContribution {
  commands(): Command[];
}

/** One entry of plugins.manifest.json as resolved for the current build target. */
export interface ManifestPlugin {
  id: string;
  hostRule?: 'helper' | 'employee';
}

export interface BuildTarget {
  name: string;
  helperHosts: string[];
  plugins: ManifestPlugin[];
}

export function isHelperHost(host: string, helperHosts: readonly string[]): boolean {
  const name = host.toLowerCase().replace(/:\d+$/, '');
  return helperHosts.some((h) => h.toLowerCase() === name);
}

/** The run-time half of the host rule: a helper-only plugin runs only on helper hosts, an employee plugin everywhere else. */
export function pluginAllowedOnHost(plugin: ManifestPlugin, helperHost: boolean): boolean {
  if (plugin.hostRule === 'helper') return helperHost;
  if (plugin.hostRule === 'employee') return !helperHost;
  return true;
}

/** What a plugin contributes, declared rather than bound by hand (definePlugin binds it). */
export interface PluginParts {
  /** Singletons, each under its token: the plugin's state and command classes. */
  services?: readonly (readonly [symbol, Newable<unknown>])[];
  /**
   * What lists the plugin's commands: a class (bound on its own, a singleton) or the token of one among `services`
   * (when the class is a service too).
   */
  commands?: CommandSource | readonly CommandSource[];
  panels?: readonly PanelContribution[];
  topBar?: readonly TopBarContribution[];
  dialogs?: readonly DialogContribution[];
}

type CommandSource = symbol | Newable<CommandContribution>;

/** A plugin from its parts: one ContainerModule that binds them to the workbench's contribution points. */
export function definePlugin(id: string, parts: PluginParts): WorkbenchPlugin {
  const commands: readonly CommandSource[] = parts.commands === undefined ? [] : Array.isArray(parts.commands) ? parts.commands : [parts.commands as CommandSource];
  return {
    id,
    module: new ContainerModule(({ bind }) => {
      for (const [token, service] of parts.services ?? []) bind(token).to(service).inSingletonScope();
      for (const source of commands) {
        if (typeof source === 'symbol') bind(TOKENS.CommandContribution).toService(source);
        else bind<CommandContribution>(TOKENS.CommandContribution).to(source).inSingletonScope();
      }
      for (const panel of parts.panels ?? []) bind<PanelContribution>(TOKENS.PanelContribution).toConstantValue(panel);
      for (const item of parts.topBar ?? []) bind<TopBarContribution>(TOKENS.TopBarContribution).toConstantValue(item);
      for (const dialog of parts.dialogs ?? []) bind<DialogContribution>(TOKENS.DialogContribution).toConstantValue(dialog);
    }),
  };
}
