/**
 * The top frames of a V8 CPU profile (`node --cpu-prof`), by self time, and the same summed by file: what
 * `BENCH_CPU_PROF=<dir> npm run bench -- api` prints for the server under load. Usage: tsx bench/cpu-profile.ts <file.cpuprofile>
 */
import fs from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

/** Microseconds on this process's monotonic clock. */
export const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

/**
 * `window`: only the samples taken between these times of the caller's clock (the load, not the start-up); the
 * profile's last sample is taken as the caller's `endedAt` (when the profiled process exited), since the two
 * processes' clocks do not share an origin.
 */
export function summarizeProfile(file: string, top = 25, window?: { from: number; to: number; endedAt: number }): string {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number };
  const hits = new Map<number, number>();
  const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
  const end = profile.startTime + profile.timeDeltas.reduce((a, b) => a + b, 0);
  let at = profile.startTime - (window ? end - window.endedAt : 0);
  let total = 0;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (idle.has(id) || (window && (at < window.from || at > window.to))) return;
    hits.set(id, (hits.get(id) ?? 0) + 1);
    total++;
  });
  total ||= 1;
  const byFrame = new Map<string, number>();
  const byFile = new Map<string, number>();
  for (const node of profile.nodes) {
    const n = hits.get(node.id) ?? 0;
    if (!n) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url.replace(/^file:\/\//, '').replace(/.*node_modules\//, '').replace(process.cwd() + '/', '');
    const frame = `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`;
    byFrame.set(frame, (byFrame.get(frame) ?? 0) + n);
    const module = where ? where.replace(/^((?:@[^/]+\/)?[^/]+).*$/, (m, pkg) => (url.includes('node_modules') ? pkg : m)) : functionName;
    byFile.set(module, (byFile.get(module) ?? 0) + n);
  }
  const pct = (n: number) => `${((100 * n) / total).toFixed(1).padStart(5)} %`;
  const rows = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, n]) => `    ${pct(n)}  ${k}`);
  return [`  ${total} busy samples; self time by frame:`, ...rows(byFrame), '  by file or package:', ...rows(byFile)].join('\n');
}

if (process.argv[1]?.endsWith('cpu-profile.ts') && process.argv[2]) console.log(summarizeProfile(process.argv[2], Number(process.argv[3] ?? 25)));
