import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Runs a bench section in a scratch folder of its own (aisa-bench-<name>-…), removed however the section ends. */
export async function inScratchDir<T>(name: string, section: (dir: string) => Promise<T>): Promise<T> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `aisa-bench-${name}-`));
  try {
    return await section(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
