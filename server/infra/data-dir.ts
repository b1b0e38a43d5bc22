/**
 * Files the server keeps in DATA_DIR beside the database:
 * operator.key (for `npm run admin`), server.json (where the running server listens), db.lock (one process per PGlite directory).
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

export interface ServerInfo {
  pid: number;
  url: string;
}

export function operatorKey(dataDir: string): string {
  return dataSecret(dataDir, 'operator.key');
}

/** A random secret kept in the data directory (created on first use, readable by its owner only). */
export function dataSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, name);
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    const key = randomBytes(32).toString('hex');
    fs.writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
    return key;
  }
}

const serverInfoFile = (dataDir: string) => path.join(dataDir, 'server.json');

export function writeServerInfo(dataDir: string, info: ServerInfo): void {
  fs.writeFileSync(serverInfoFile(dataDir), JSON.stringify(info));
}

export function readServerInfo(dataDir: string): ServerInfo | null {
  try {
    const info = JSON.parse(fs.readFileSync(serverInfoFile(dataDir), 'utf8')) as ServerInfo;
    return isAlive(info.pid) ? info : null;
  } catch {
    return null;
  }
}

export function removeServerInfo(dataDir: string): void {
  try {
    const info = JSON.parse(fs.readFileSync(serverInfoFile(dataDir), 'utf8')) as ServerInfo;
    if (info.pid === process.pid) fs.rmSync(serverInfoFile(dataDir), { force: true });
  } catch {
    /* already gone */
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class DataDirLockedError extends Error {}

/** Takes the data directory's lock or throws when a live process holds it. Returns the release function. */
export function lockDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'db.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => {
        if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === String(process.pid)) fs.rmSync(file, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number(fs.readFileSync(file, 'utf8'));
      if (holder && holder !== process.pid && isAlive(holder)) {
        throw new DataDirLockedError(`数据目录 ${dataDir} 正被进程 ${holder} 使用（嵌入式数据库只允许一个进程打开）`);
      }
      fs.rmSync(file, { force: true });
    }
  }
  throw new DataDirLockedError(`无法锁定数据目录 ${dataDir}`);
}
