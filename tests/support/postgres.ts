/**
 * A throwaway PostgreSQL cluster from the machine's binaries: initdb + pg_ctl on a free port in a temp dir.
 * initdb refuses to run as root, so as root the cluster runs as the `postgres` user (or `nobody`).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { freePort } from './server';

function findBin(name: string): string {
  const onPath = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
  if (onPath) return onPath;
  const base = '/usr/lib/postgresql';
  const versions = fs.existsSync(base) ? fs.readdirSync(base).sort().reverse() : [];
  for (const v of versions) {
    const candidate = path.join(base, v, 'bin', name);
    if (fs.existsSync(candidate)) return candidate;
  }
  throw new Error(`${name} not found: install PostgreSQL's server binaries (Debian: apt-get install postgresql) or set DATABASE_URL`);
}

function runAs(): { user?: string; uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  for (const user of ['postgres', 'nobody']) {
    const res = spawnSync('id', ['-u', user], { encoding: 'utf8' });
    if (res.status === 0) {
      const uid = Number(res.stdout.trim());
      const gid = Number(spawnSync('id', ['-g', user], { encoding: 'utf8' }).stdout.trim());
      return { user, uid, gid };
    }
  }
  throw new Error('running as root and no unprivileged user for initdb');
}

export interface ThrowawayCluster {
  url: string;
  stop(): void;
}

export async function startThrowawayPostgres(): Promise<ThrowawayCluster> {
  const initdb = findBin('initdb');
  const pgCtl = findBin('pg_ctl');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aisa-pg-'));
  const as = runAs();
  if (as.uid !== undefined) fs.chownSync(dir, as.uid, as.gid!);
  const exec = (bin: string, args: string[]) =>
    as.user ? execFileSync('runuser', ['-u', as.user, '--', bin, ...args], { stdio: 'pipe' }) : execFileSync(bin, args, { stdio: 'pipe' });
  const data = path.join(dir, 'data');
  exec(initdb, ['-D', data, '-U', 'aisa', '--auth=trust', '-E', 'UTF8', '--no-sync', '--locale=C']);
  const port = await freePort();
  exec(pgCtl, ['-D', data, '-l', path.join(dir, 'log'), '-w', '-t', '60', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`, 'start']);
  return {
    url: `postgres://aisa@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        exec(pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * A fresh database on the cluster, so each test file starts from nothing; with `template`, a copy of that database
 * (the run's migrated one: a test server then finds its migrations applied, as on PGlite).
 */
export async function createDatabase(adminUrl: string, template?: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
