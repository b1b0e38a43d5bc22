import type { IconName, IconPaths } from '@blueprintjs/icons';

/** An icon's paths from its group's chunk; this module (the map of them) is itself loaded on the first icon. */
export async function loadIconPaths(name: IconName, size: number): Promise<IconPaths> {
  const mod = (await (size === 16
    ? import(`../../node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/${name}.js`)
    : import(`../../node_modules/@blueprintjs/icons/lib/esm/generated/20px/paths/${name}.js`))) as { default: IconPaths };
  return mod.default;
}
