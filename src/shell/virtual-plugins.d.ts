declare module 'virtual:workbench-plugins' {
  import type { BuildTarget, ManifestPlugin, WorkbenchPlugin } from '../core';
  export const target: BuildTarget;
  export const plugins: { manifest: ManifestPlugin; plugin: WorkbenchPlugin }[];
}
