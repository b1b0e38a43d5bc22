/**
 * The soak's deployment: product processes (`server/main.ts` with ROLE=api or ROLE=worker) on one PostgreSQL and
 * one storage, a round-robin proxy in front of the api processes, and a chaos loop that SIGKILLs and restarts them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { freePort, ROOT } from '../support/server';
import { sleep } from './client';

/** One process, so the pid is the server's own and SIGKILL reaches it (as tests/support/server.ts does). */
const NODE_TS = [process.execPath, '--import', 'tsx'] as const;

export class Slot {
  child?: ChildProcess;
  starts = 0;
  kills = 0;
  private readonly log: fs.WriteStream;

  constructor(
    readonly name: string,
    readonly role: 'api' | 'worker',
    readonly port: number,
    private readonly env: Record<string, string>,
    logDir: string,
  ) {
    this.log = fs.createWriteStream(path.join(logDir, `${name}.log`), { flags: 'a' });
  }

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Starts the process and waits until it answers /api/health/live. */
  async start(): Promise<void> {
    const env = { ...process.env, ...this.env, ROLE: this.role, PORT: String(this.port) };
    const child = spawn(NODE_TS[0], [...NODE_TS.slice(1), 'server/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    this.starts++;
    this.log.write(`\n--- start ${this.starts} pid ${child.pid} at ${new Date().toISOString()}\n`);
    child.stdout!.pipe(this.log, { end: false });
    child.stderr!.pipe(this.log, { end: false });
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (!this.running) throw new Error(`${this.name} exited while starting (see ${this.name}.log)`);
      try {
        if ((await fetch(`http://127.0.0.1:${this.port}/api/health/live`)).ok) return;
      } catch {
        /* not listening yet */
      }
      if (Date.now() > deadline) throw new Error(`${this.name} did not start in 120 s`);
      await sleep(200);
    }
  }

  /** Sends the signal and resolves once the process is gone. */
  stop(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return Promise.resolve();
    return new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  }

  async kill(): Promise<void> {
    this.kills++;
    this.log.write(`\n--- SIGKILL at ${new Date().toISOString()}\n`);
    await this.stop('SIGKILL');
  }
}

/**
 * A tiny load balancer: each request goes to the next api process; a refused connection (a killed process, not
 * yet restarted) moves on to the next one. A backend dying mid-request drops the client's connection, which is
 * what a client of a real balancer sees too, and retries.
 */
export async function startProxy(backends: Slot[]): Promise<{ url: string; close(): Promise<void> }> {
  let next = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const forward = (tries: number) => {
        const target = backends[next++ % backends.length]!;
        const upstream = http.request({ host: '127.0.0.1', port: target.port, method: req.method, path: req.url, headers: req.headers }, (reply) => {
          res.writeHead(reply.statusCode ?? 502, reply.headers);
          reply.pipe(res);
          reply.on('error', () => res.destroy());
        });
        upstream.on('error', (err: NodeJS.ErrnoException) => {
          if (err.code === 'ECONNREFUSED' && tries < backends.length * 3 && !res.headersSent) setTimeout(() => forward(tries + 1), 50);
          else res.destroy();
        });
        upstream.end(body);
      };
      forward(0);
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

export async function newSlot(name: string, role: 'api' | 'worker', env: Record<string, string>, logDir: string): Promise<Slot> {
  return new Slot(name, role, await freePort(), env, logDir);
}

/**
 * Every 5–15 s SIGKILLs one running process of those it may touch and starts it again at once (the restart is
 * what an orchestrator does). Returns a stop function that waits for the current round to end.
 */
export function startChaos(candidates: () => Slot[], { minMs = 5000, maxMs = 15000 } = {}, onError: (err: unknown) => void): () => Promise<void> {
  let stopped = false;
  let wake: () => void = () => undefined;
  const loop = (async () => {
    while (!stopped) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, minMs + Math.random() * (maxMs - minMs));
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      if (stopped) break;
      const alive = candidates().filter((s) => s.running);
      const victim = alive[Math.floor(Math.random() * alive.length)];
      if (!victim) continue;
      try {
        await victim.kill();
        await victim.start();
      } catch (err) {
        onError(err);
      }
    }
  })();
  return async () => {
    stopped = true;
    wake();
    await loop;
  };
}
