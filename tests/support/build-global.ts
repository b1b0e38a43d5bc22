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
    helperWebRoot: string;
  }
}

/** Builds the web app once per target (standard and helper) for the browser journeys and the bundle checks, both at once. */
export default async function setup(project: TestProject) {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'aisa-web-'));
  const out = { standard: path.join(base, 'standard'), helper: path.join(base, 'helper') };
  await Promise.all(
    Object.entries(out).map(async ([target, dir]) => {
      const { stderr } = await promisify(execFile)(path.join(ROOT, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], {
        cwd: ROOT,
        env: { ...process.env, BUILD_TARGET: target, BUILD_OUT_DIR: dir },
        maxBuffer: 16 * 1024 * 1024,
      });
      if (stderr.trim()) console.warn(`[build ${target}] ${stderr.trim()}`);
    }),
  );
  project.provide('webRoot', out.standard);
  project.provide('helperWebRoot', out.helper);
  return () => fs.rmSync(base, { recursive: true, force: true });
}
