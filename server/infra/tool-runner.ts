/**
 * Runs a media tool (ffmpeg, ffprobe) through the launcher process (tool-launcher.mjs), started at the first run and
 * again if it dies. The server's own process never forks: a fork of it costs 30-50 ms of blocked event loop (measured
 * with the embedded database open), a run through the launcher well under a millisecond here.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface ToolOptions {
  cwd?: string;
  /** The tool's environment; this process's by default (read at each run, not when the launcher started). */
  env?: NodeJS.ProcessEnv;
  /** Bytes for the tool's standard input; without them it reads nothing. */
  input?: Uint8Array;
  /** Killed after this long. */
  timeoutMs: number;
  /** Killed once it prints more than this on standard output. */
  maxBuffer: number;
  killSignal?: NodeJS.Signals;
}

export interface ToolRun {
  /** The exit code; null when a signal ended it. */
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Why the launcher ended or could not start it (a timeout, too much output, a missing program). */
  reason?: string;
  stdout: Buffer;
  stderr: string;
}

const LAUNCHER = fileURLToPath(new URL('./tool-launcher.mjs', import.meta.url));

let launcher: ChildProcess | undefined;
const waiting = new Map<number, { resolve: (run: ToolRun) => void; reject: (err: Error) => void }>();
let lastId = 0;

/** While runs are under way the launcher holds this process open; idle, it lets it exit. */
function holdOpen(child: ChildProcess, hold: boolean) {
  if (hold) {
    child.ref();
    child.channel?.ref();
  } else {
    child.unref();
    child.channel?.unref();
  }
}

function started(): ChildProcess {
  if (launcher?.connected) return launcher;
  // No loaders or flags of this process (tsx, inspectors): the launcher is plain JavaScript and should stay small.
  const child = fork(LAUNCHER, [], { execArgv: [], serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  child.on('message', (message: ToolRun & { id: number }) => {
    const { id, ...run } = message;
    waiting.get(id)?.resolve({ ...run, stdout: Buffer.from(run.stdout) });
    waiting.delete(id);
    if (waiting.size === 0) holdOpen(child, false);
  });
  child.on('exit', (code, signal) => {
    if (launcher === child) launcher = undefined;
    const gone = new Error(`the media tool launcher stopped (${code ?? signal})`);
    for (const run of waiting.values()) run.reject(gone);
    waiting.clear();
  });
  launcher = child;
  return child;
}

export function runTool(file: string, args: readonly string[], options: ToolOptions): Promise<ToolRun> {
  const child = started();
  const id = ++lastId;
  return new Promise<ToolRun>((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    holdOpen(child, true);
    const { env = process.env, killSignal = 'SIGTERM', ...rest } = options;
    child.send({ id, file, args, options: { ...rest, env, killSignal } }, (err) => {
      if (!err) return;
      waiting.delete(id);
      reject(err);
    });
  });
}

/** The run ended by itself with exit code 0. */
export const succeeded = (run: ToolRun) => run.code === 0 && !run.reason;

/** The end of a failed run in one line: the last lines the tool printed, else why it ended. */
export function failureOf(run: ToolRun): string {
  const printed = run.stderr.trim().split('\n').slice(-3).join(' | ');
  return printed || run.reason || `exit ${run.code ?? run.signal}`;
}
