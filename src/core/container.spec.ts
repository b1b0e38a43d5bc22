import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ContainerModule, type ContainerModuleLoadOptions } from 'inversify';
import { createWorkbenchContainer, TOKENS, type CommandRegistry, type WorkbenchPlugin } from './index';
import { resolveTarget, type ManifestFile } from '../shell/manifest';
import { shellModule } from '../shell/shell-commands';

const ROOT = path.resolve(__dirname, '../..');
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'plugins.manifest.json'), 'utf8')) as ManifestFile;

/** Records every service id a module binds (a ContainerModule exposes no list of its own). */
function boundIds(module: ContainerModule): Set<symbol | string | Function> {
  const ids = new Set<symbol | string | Function>();
  const chain: unknown = new Proxy(() => chain, { get: () => () => chain, apply: () => chain });
  const options = {
    bind: (id: symbol) => {
      ids.add(id);
      return chain;
    },
    isBound: () => false, onActivation() {}, onDeactivation() {}, rebind: () => chain, rebindAsync: async () => chain, unbind() {}, unbindAsync: async () => {},
  } as unknown as ContainerModuleLoadOptions;
  void module.load(options);
  return ids;
}

const CONTRIBUTIONS = new Set<symbol>([TOKENS.CommandContribution, TOKENS.PanelContribution, TOKENS.TopBarContribution, TOKENS.DialogContribution]);

describe.each(Object.keys(manifest.targets))('workbench container for build target "%s"', (targetName) => {
  const target = resolveTarget(manifest, targetName);

  it.each([false, true])('resolves every binding of the core, the shell and each plugin (helper host: %s)', async (isHelperHost) => {
    const plugins: WorkbenchPlugin[] = [];
    for (const p of target.plugins) plugins.push(((await import(path.join(ROOT, p.entry))) as { plugin: WorkbenchPlugin }).plugin);
    const container = createWorkbenchContainer(plugins, { host: 'localhost', target: targetName, isHelperHost }, [shellModule]);
    const ids = new Set<symbol | string | Function>(Object.values(TOKENS));
    for (const plugin of plugins) for (const id of boundIds(plugin.module)) ids.add(id);
    let resolved = 0;
    for (const id of ids) {
      if (CONTRIBUTIONS.has(id as symbol)) {
        expect(Array.isArray(container.getAll(id as symbol, { optional: true }))).toBe(true);
      } else {
        expect(container.get(id as symbol), String(id)).toBeDefined();
      }
      resolved++;
    }
    expect(resolved).toBeGreaterThan(Object.keys(TOKENS).length);
    const commands = container.get<CommandRegistry>(TOKENS.CommandRegistry).list().map((c) => c.id);
    expect(commands).toEqual(expect.arrayContaining(['nav./home', 'workbench.toggleTheme', 'account.logout', 'account.changePassword']));
  });
});

describe('start-up checks', () => {
  it('throws on two plugins with one id', () => {
    const p: WorkbenchPlugin = { id: 'same', module: new ContainerModule(() => {}) };
    expect(() => createWorkbenchContainer([p, { ...p }], { host: 'x', target: 't', isHelperHost: false })).toThrow(/duplicate plugin id/);
  });

  it('throws on two panels for one route', () => {
    const panel = (id: string): WorkbenchPlugin => ({
      id,
      module: new ContainerModule(({ bind }) => {
        bind(TOKENS.PanelContribution).toConstantValue({ route: '/home', component: () => null });
      }),
    });
    expect(() => createWorkbenchContainer([panel('a'), panel('b')], { host: 'x', target: 't', isHelperHost: false })).toThrow(/duplicate panel/);
  });

  it('throws on two commands with one id, from different plugins', () => {
    const cmd = (id: string): WorkbenchPlugin => ({
      id,
      module: new ContainerModule(({ bind }) => {
        bind(TOKENS.CommandContribution).toConstantValue({ commands: () => [{ id: 'same.command', title: 'x', run() {} }] });
      }),
    });
    expect(() => createWorkbenchContainer([cmd('a'), cmd('b')], { host: 'x', target: 't', isHelperHost: false })).toThrow(/duplicate command id/);
  });

  it('throws on a panel for a route the spec does not have', () => {
    const p: WorkbenchPlugin = { id: 'x', module: new ContainerModule(({ bind }) => void bind(TOKENS.PanelContribution).toConstantValue({ route: '/nope', component: () => null })) };
    expect(() => createWorkbenchContainer([p], { host: 'x', target: 't', isHelperHost: false })).toThrow(/unknown route/);
  });
});
