import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { ROOT } from './server';
import { until } from './wait';

declare module 'vitest' {
  export interface ProvidedContext {
    webRoot: string;
  }
}

/** `vite build` of one target of plugins.manifest.json into `outDir`. */
export async function buildWebApp(target: 'standard' | 'helper', outDir: string): Promise<void> {
  const { stderr } = await promisify(execFile)(path.join(ROOT, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], {
    cwd: ROOT,
    // Quick compressed twins: served on loopback, their size does not matter here (vite.config.ts). NODE_ENV as a user's
    // `npm run build` has it: Vite takes the shell's, and vitest's `test` made every journey drive React's development
    // build (jsxDEV, owner stacks: about a third of the renderer's CPU) instead of the release users get.
    env: { ...process.env, NODE_ENV: 'production', BUILD_TARGET: target, BUILD_OUT_DIR: outDir, BUILD_COMPRESSION: 'fast' },
    maxBuffer: 16 * 1024 * 1024,
  });
  if (stderr.trim()) console.warn(`[build ${target}] ${stderr.trim()}`);
}

/**
 * The helper target of the run, beside the standard one at `webRoot` (inject('webRoot')): built by the first journey
 * file that asks, beside the other journeys instead of before all of them; a file asking meanwhile (the two that use
 * it run in different workers) waits for that build instead of making its own.
 */
export async function helperWebRoot(webRoot: string): Promise<string> {
  const dir = `${webRoot}-helper`;
  const built = `${dir}.built`;
  try {
    fs.mkdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    // Another worker builds it: its marker says when, or why not.
    if (!(await until(async () => fs.existsSync(built), Boolean, 300_000))) throw new Error('the helper build did not finish within 300 s');
    const failure = fs.readFileSync(built, 'utf8');
    if (failure) throw new Error(`the helper build failed: ${failure}`);
    return dir;
  }
  try {
    await buildWebApp('helper', dir);
    fs.writeFileSync(built, '');
  } catch (err) {
    fs.writeFileSync(built, String(err));
    throw err;
  }
  return dir;
}

/** Builds the web app once (the standard target) for every journey; the helper target is built on demand (helperWebRoot). */
export default async function setup(project: TestProject) {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'aisa-web-'));
  await buildWebApp('standard', base);
  project.provide('webRoot', base);
  return () => {
    for (const dir of [base, `${base}-helper`, `${base}-helper.built`]) fs.rmSync(dir, { recursive: true, force: true });
  };
}
