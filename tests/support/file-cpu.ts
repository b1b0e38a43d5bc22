/**
 * CPU seconds per spec file, for the time table of `npm test` (tests/support/timing-table.mjs): on a machine whose
 * cores the suite keeps busy, a file's wall time says more about what ran beside it than about its own cost.
 * A file's cost is its worker's CPU while it ran ("own": the spec, servers in its process, their worker threads)
 * and what that worker reaped meanwhile ("children": ffmpeg, server processes, Chromium). Chromium's renderers are
 * not all reaped through the worker (a closing browser leaves some to init), so a journey adds what its browser
 * tree had used and the worker did not reap (`closeCounted`). Linux only (/proc); elsewhere nothing is written.
 */
import fs from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';

/** The JSON-lines file a run collects the figures in (set by tests/run-all.mjs). */
export const CPU_LOG_ENV = 'TEST_CPU_LOG';
/** Set (to a file), each test's CPU is logged there too: what to cut inside a costly file. */
export const TEST_CPU_LOG_ENV = 'TEST_CPU_PER_TEST';
const TICKS = 100;

interface ProcCpu { ppid: number; own: number; reaped: number }

function procCpu(pid: number | 'self'): ProcCpu | undefined {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return { ppid: Number(fields[1]), own: (Number(fields[11]) + Number(fields[12])) / TICKS, reaped: (Number(fields[13]) + Number(fields[14])) / TICKS };
  } catch {
    return undefined;
  }
}

/** CPU of the live processes under `root` (not `root` itself), each with what it has reaped. */
function descendantsCpu(root: number): number {
  const stats = new Map<number, ProcCpu>();
  for (const name of fs.readdirSync('/proc')) {
    const stat = /^\d+$/.test(name) ? procCpu(Number(name)) : undefined;
    if (stat) stats.set(Number(name), stat);
  }
  const tree = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, stat] of stats) {
      if (tree.has(pid) || !tree.has(stat.ppid)) continue;
      tree.add(pid);
      grew = true;
    }
  }
  tree.delete(root);
  return [...tree].reduce((sum, pid) => sum + stats.get(pid)!.own + stats.get(pid)!.reaped, 0);
}

let unreaped = 0;

/**
 * Runs `close` (a browser's) and counts what the processes it ends had used but the worker will not reap. Must run
 * while the worker has no other children that could end meanwhile (a journey closes its browser before its server).
 */
export async function closeCounted(close: () => Promise<void>): Promise<void> {
  if (!process.env[CPU_LOG_ENV] || !procCpu('self')) return close();
  const live = descendantsCpu(process.pid);
  const reapedBefore = procCpu('self')!.reaped;
  await close();
  const stillLive = descendantsCpu(process.pid);
  unreaped += Math.max(0, live - stillLive - (procCpu('self')!.reaped - reapedBefore));
}

/**
 * Registers the per-file measure (from a setup file, so its afterAll runs after the spec's own). "Children" counts
 * what live descendants used meanwhile too: the media tool launcher (server/infra/tool-runner.ts) outlives the files
 * of its worker and reaps their ffmpeg runs itself, which the worker would otherwise only see when it ends.
 */
export function measureFileCpu(): void {
  const log = process.env[CPU_LOG_ENV];
  if (!log || !procCpu('self')) return;
  let start: ProcCpu & { live: number };
  beforeAll(() => {
    start = { ...procCpu('self')!, live: descendantsCpu(process.pid) };
    unreaped = 0;
  });
  afterAll(() => {
    const end = procCpu('self')!;
    const live = descendantsCpu(process.pid);
    const file = expect.getState().testPath ?? '?';
    fs.appendFileSync(log, `${JSON.stringify({ file, own: end.own - start.own, children: end.reaped - start.reaped + live - start.live + unreaped })}\n`);
  });
}

/** Everything the worker and its process tree have used so far: its own, what it reaped, and its live descendants'. */
const treeCpu = () => {
  const self = procCpu('self')!;
  return self.own + self.reaped + descendantsCpu(process.pid);
};

/** Registers the per-test measure when TEST_CPU_PER_TEST names a file (a test's background work, a server's job, counts in it). */
export function measureTestCpu(): void {
  const log = process.env[TEST_CPU_LOG_ENV];
  if (!log || !procCpu('self')) return;
  let start = 0;
  beforeEach(() => {
    start = treeCpu();
  });
  afterEach((context) => {
    const file = expect.getState().testPath ?? '?';
    fs.appendFileSync(log, `${JSON.stringify({ file, test: context.task.name, cpu: Number((treeCpu() - start).toFixed(2)) })}\n`);
  });
}
