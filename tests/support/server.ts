/**
 * Starts the real product server (`server/main.ts`, from the run's JavaScript build or through tsx) as a child process
 * on a free port with its own data directory, as a user would run it; stops it with SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { runAdmin as runAdminCommand } from '../../server/cli/admin';
import { readServerInfo } from '../../server/infra/data-dir';
import { seedPgliteData } from './pglite-template';
import { ROOT } from './root';
import { builtServerFile } from './server-build';
import { TEST_SHORT_SIDE } from './render-size';
import { tempDir } from './temp-dirs';

export { ROOT };
/**
 * A test server or operator command runs the embedded database's WebAssembly on V8's baseline compiler only:
 * optimising its hot functions cost each server start about 1.5 CPU-s on background threads, more than the few minutes
 * of a test server's queries win back (measured per journey server: 10.6 → 8.3 CPU-s on create.e2e, 19.6 → 19.1 on
 * media.e2e; an `admin user list` on a stopped server's data: 4.2 → 2.8).
 */
const TEST_SERVER_V8 = ['--liftoff-only'];

/**
 * Node's arguments that run one of the server's entry points: the run's JavaScript build where the test run made one
 * (tests/support/server-build.ts), else the source through tsx, as `npm start` does. One process either way, so its pid
 * is the server's own (SIGKILL in a test must reach the server, not a wrapper). V8 runs with TEST_SERVER_V8 unless
 * `productCompilers`; `nodeArgs` go to node itself.
 */
function serverCommand(source: string, options: { fromSource?: boolean; productCompilers?: boolean; nodeArgs?: string[] } = {}): string[] {
  const built = options.fromSource ? undefined : builtServerFile(source);
  return [...(options.productCompilers ? [] : TEST_SERVER_V8), ...(options.nodeArgs ?? []), ...(built ? [built] : ['--import', 'tsx', source])];
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  url: string;
  dataDir: string;
  process: ChildProcess;
  output(): string;
  admin(...args: string[]): Promise<string>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * `nodeArgs`: flags for node itself (the bench's --cpu-prof, which NODE_OPTIONS may not carry); `productCompilers`:
 * V8 as the product runs it, without TEST_SERVER_V8 (the bench measures the product); `fromSource`: through tsx as
 * `npm start` runs it, even where the run has a build.
 */
export async function startServer(
  options: { dataDir?: string; env?: Record<string, string>; webRoot?: string; nodeArgs?: string[]; productCompilers?: boolean; fromSource?: boolean } = {},
): Promise<RunningServer> {
  let dataDir = options.dataDir;
  if (!dataDir) {
    dataDir = tempDir('aisa-data-');
    if (!options.env?.DATABASE_URL) seedPgliteData(dataDir);
  }
  const port = await freePort();
  // No seeded public voices unless a test asks (SEED_PUBLIC_VOICES=on): tests arrange the voices they list.
  const env = { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', WEB_ROOT: options.webRoot ?? path.join(ROOT, 'dist'), SEED_PUBLIC_VOICES: 'off', RENDER_SHORT_SIDE: String(TEST_SHORT_SIDE), ...options.env };
  const child = spawn(process.execPath, serverCommand('server/main.ts', options), { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${out}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    dataDir,
    process: child,
    output: () => out,
    admin: (...args) => runAdmin(dataDir, args, options.env),
    stop: (signal = 'SIGTERM') =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill(signal);
      }),
  };
}

/**
 * An operator command sent to the server running on `dataDir`, by the CLI's own code (server/cli/admin.ts) in this
 * process: the same parsing and calls as `npm run admin`, without a node process started and the CLI loaded again
 * (2 CPU-s a command, about 60 in the journeys). The journeys send theirs so; specs of the CLI itself use the process
 * (runAdmin, `RunningServer.admin`).
 */
export async function adminOnServer(dataDir: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  // Never in-process without the server: the CLI would open the embedded database beside the server's.
  if (!readServerInfo(dataDir)) throw new Error(`admin ${args.join(' ')}: no server is running on ${dataDir}`);
  return (await runAdminCommand(args, adminEnv(dataDir, env))).trim();
}

/** The environment an operator command reads for the data directory (and the server's own `env`). */
const adminEnv = (dataDir: string, env: Record<string, string>) => ({ ...process.env, DATA_DIR: dataDir, ...env });

/** An operator command as the `npm run admin` process runs it. */
export function runAdmin(dataDir: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...serverCommand('server/cli/admin.ts'), ...args], { cwd: ROOT, env: adminEnv(dataDir, env), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`admin ${args.join(' ')} failed (${code}): ${err || out}`))));
  });
}
