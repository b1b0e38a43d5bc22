import type { ContainerModule } from 'inversify';
import type { Command } from './tokens';

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
