/** Job scratch space: DATA_DIR/tmp/<pid>/…, so what a killed worker left behind is found and removed at the next start. */
import fs from 'node:fs';
import path from 'node:path';

export function jobTempRoot(dataDir: string): string {
  return path.join(dataDir, 'tmp');
}

/** Removes the scratch folders of processes that no longer run (and this process's own, at start-up). */
export function cleanStaleJobDirs(dataDir: string): void {
  const root = jobTempRoot(dataDir);
  if (!fs.existsSync(root)) return;
  for (const pid of fs.readdirSync(root)) {
    let alive = false;
    try {
      process.kill(Number(pid), 0);
      alive = Number(pid) !== 0;
    } catch (err) {
      alive = (err as NodeJS.ErrnoException).code === 'EPERM';
    }
    if (!alive || Number(pid) === process.pid) fs.rmSync(path.join(root, pid), { recursive: true, force: true });
  }
}

/** Runs fn in a fresh scratch folder that is removed afterwards, whatever happens. */
export async function withWorkDir<T>(dataDir: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const mine = path.join(jobTempRoot(dataDir), String(process.pid));
  fs.mkdirSync(mine, { recursive: true });
  const dir = fs.mkdtempSync(path.join(mine, 'job-'));
  try {
    return await fn(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
