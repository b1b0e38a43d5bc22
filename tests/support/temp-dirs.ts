import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Folders a spec file makes under the system's temp folder (media, data directories of servers started as
 * processes, data arranged for them), removed after the file's last test by the setup file `temp-cleanup.ts`: a run
 * leaves nothing behind, however its specs end. A file's own `afterAll` runs first, so its servers have stopped.
 */
const made = new Set<string>();

export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.add(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
  made.clear();
}
