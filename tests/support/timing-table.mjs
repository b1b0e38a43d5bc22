// The time table `npm test` ends with, from vitest's JSON report: each project's wall time (first file's start to
// the last one's end) and summed file time, the server's tests split by database (the tests' own time, hooks not
// counted), and the slowest files; then, from the CPU log of tests/support/file-cpu.ts, each project's CPU seconds
// and the costliest files (on a busy machine a file's wall time is mostly what ran beside it; its CPU is its own).
// Run alone on saved reports: `node tests/support/timing-table.mjs report.json [cpu.jsonl]`.
import fs from 'node:fs';
import path from 'node:path';

/** Which project a file belongs to, from where it lives (vitest.config.ts's includes). */
const projectOf = (file) => {
  const rel = path.relative(process.cwd(), file);
  if (rel.startsWith('src/')) return 'unit';
  if (rel.startsWith('tests/e2e/')) return 'e2e';
  return 'server';
};

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const pad = (text, width) => String(text).padEnd(width);

/** `cpu`: the lines of the CPU log ({ file, own, children } in seconds), or none. */
export function timingTable(report, cpu = [], slowest = 15) {
  const files = report.testResults.map((r) => ({
    file: path.relative(process.cwd(), r.name),
    project: projectOf(r.name),
    start: r.startTime,
    end: r.endTime,
    ms: Math.max(0, r.endTime - r.startTime),
    tests: r.assertionResults,
  }));
  const lines = ['', 'time per project', `${pad('project', 22)}${pad('wall', 12)}${pad('files summed', 16)}tests`];
  for (const project of ['unit', 'server', 'e2e']) {
    const mine = files.filter((f) => f.project === project);
    if (mine.length === 0) continue;
    const wall = Math.max(...mine.map((f) => f.end)) - Math.min(...mine.map((f) => f.start));
    const summed = mine.reduce((sum, f) => sum + f.ms, 0);
    lines.push(`${pad(project, 22)}${pad(seconds(wall), 12)}${pad(seconds(summed), 16)}${mine.reduce((n, f) => n + f.tests.length, 0)}`);
    if (project === 'server') {
      for (const kind of ['pglite', 'postgres']) {
        const tests = mine.flatMap((f) => f.tests).filter((t) => (t.ancestorTitles ?? []).some((title) => title.endsWith(`(${kind})`)));
        lines.push(`${pad(`  server on ${kind}`, 22)}${pad('', 12)}${pad(seconds(tests.reduce((sum, t) => sum + (t.duration ?? 0), 0)), 16)}${tests.length}  (tests' own time)`);
      }
    }
  }
  lines.push('', `${slowest} slowest files`);
  for (const f of [...files].sort((a, b) => b.ms - a.ms).slice(0, slowest)) lines.push(`${pad(seconds(f.ms), 10)}${pad(f.project, 8)}${f.file}`);
  if (cpu.length > 0) lines.push('', ...cpuTable(cpu, slowest));
  return lines.join('\n');
}

const cpuSeconds = (s) => `${s.toFixed(1)} s`;

function cpuTable(cpu, costliest) {
  const rows = cpu.map((c) => ({ ...c, file: path.relative(process.cwd(), c.file), project: projectOf(c.file), total: c.own + c.children }));
  const lines = ['CPU per project (the files\' processes and what they started: servers, ffmpeg, Chromium)', `${pad('project', 22)}${pad('CPU', 12)}${pad('own', 12)}children`];
  for (const project of ['unit', 'server', 'e2e']) {
    const mine = rows.filter((r) => r.project === project);
    if (mine.length === 0) continue;
    const sum = (key) => mine.reduce((n, r) => n + r[key], 0);
    lines.push(`${pad(project, 22)}${pad(cpuSeconds(sum('total')), 12)}${pad(cpuSeconds(sum('own')), 12)}${cpuSeconds(sum('children'))}`);
  }
  lines.push('', `${costliest} costliest files (CPU: own + children)`);
  for (const r of [...rows].sort((a, b) => b.total - a.total).slice(0, costliest)) {
    lines.push(`${pad(cpuSeconds(r.total), 10)}${pad(`${cpuSeconds(r.own)} + ${cpuSeconds(r.children)}`, 20)}${pad(r.project, 8)}${r.file}`);
  }
  return lines;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const cpu = process.argv[3] ? readCpuLog(process.argv[3]) : [];
  console.log(timingTable(JSON.parse(fs.readFileSync(process.argv[2], 'utf8')), cpu));
}

/** The CPU log's lines (none when the run wrote none: not Linux). */
export function readCpuLog(file) {
  if (!fs.existsSync(file)) return [];
  return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
}
