import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { ROOT } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    webRoot: string;
  }
}

/** `vite build` of one target of plugins.manifest.json into `outDir`. */
export async function buildWebApp(target: 'standard' | 'helper', outDir: string): Promise<void> {
  const { stderr } = await promisify(execFile)(path.join(ROOT, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], {
    cwd: ROOT,
    env: { ...process.env, BUILD_TARGET: target, BUILD_OUT_DIR: outDir },
    maxBuffer: 16 * 1024 * 1024,
  });
  if (stderr.trim()) console.warn(`[build ${target}] ${stderr.trim()}`);
}

/**
 * Builds the web app once (the standard target) for every journey. The helper target is built by the one file that
 * checks it (build-targets.e2e.ts), beside the other journeys instead of before all of them.
 */
export default async function setup(project: TestProject) {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'aisa-web-'));
  await buildWebApp('standard', base);
  project.provide('webRoot', base);
  return () => fs.rmSync(base, { recursive: true, force: true });
}
