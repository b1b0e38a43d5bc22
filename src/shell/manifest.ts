/**
 * Resolves plugins.manifest.json for one build target. Pure (no Node or DOM), so the Vite build,
 * the tests and the browser share it.
 */
export interface ManifestFile {
  helperHosts: string[];
  defaultTarget: string;
  plugins: { id: string; entry: string; hostRule?: 'helper' | 'employee'; description?: string }[];
  targets: Record<string, { description?: string; exclude?: string[] }>;
}

export interface ResolvedTarget {
  name: string;
  helperHosts: string[];
  plugins: ManifestFile['plugins'];
}

export function resolveTarget(manifest: ManifestFile, name = manifest.defaultTarget): ResolvedTarget {
  const target = manifest.targets[name];
  if (!target) throw new Error(`unknown build target "${name}"; targets: ${Object.keys(manifest.targets).join(', ')}`);
  const ids = new Set<string>();
  for (const p of manifest.plugins) {
    if (ids.has(p.id)) throw new Error(`duplicate plugin id "${p.id}" in plugins.manifest.json`);
    ids.add(p.id);
  }
  for (const id of target.exclude ?? []) if (!ids.has(id)) throw new Error(`target "${name}" excludes unknown plugin "${id}"`);
  const excluded = new Set(target.exclude ?? []);
  return { name, helperHosts: manifest.helperHosts, plugins: manifest.plugins.filter((p) => !excluded.has(p.id)) };
}

/** The virtual module's source: static imports of exactly the target's plugins. */
export function virtualModuleSource(target: ResolvedTarget, importPath: (entry: string) => string): string {
  const imports = target.plugins.map((p, i) => `import { plugin as p${i} } from ${JSON.stringify(importPath(p.entry))};`);
  const list = target.plugins.map((p, i) => `{ manifest: ${JSON.stringify({ id: p.id, hostRule: p.hostRule })}, plugin: p${i} }`);
  return `${imports.join('\n')}
export const target = ${JSON.stringify({ name: target.name, helperHosts: target.helperHosts, plugins: target.plugins.map((p) => ({ id: p.id, hostRule: p.hostRule })) })};
export const plugins = [${list.join(', ')}];
`;
}
