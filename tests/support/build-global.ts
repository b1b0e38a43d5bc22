import { execFileSync } from 'node:child_process';
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

/** Builds the web app once per target (standard and helper) for the browser journeys and the bundle checks. */
export default function setup(project: TestProject) {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'aisa-web-'));
  const out: Record<string, string> = {};
  for (const target of ['standard', 'helper']) {
    out[target] = path.join(base, target);
    execFileSync(path.join(ROOT, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], {
      cwd: ROOT,
      env: { ...process.env, BUILD_TARGET: target, BUILD_OUT_DIR: out[target] },
      stdio: 'inherit',
    });
  }
  project.provide('webRoot', out.standard!);
  project.provide('helperWebRoot', out.helper!);
  return () => fs.rmSync(base, { recursive: true, force: true });
}
