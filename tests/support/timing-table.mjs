// The time table `npm test` ends with, from vitest's JSON report: each project's wall time (first file's start to
// the last one's end) and summed file time, the server's tests split by database (the tests' own time, hooks not
// counted), and the slowest files. Run alone on a saved report: `node tests/support/timing-table.mjs report.json`.
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

export function timingTable(report, slowest = 15) {
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
  return lines.join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  console.log(timingTable(JSON.parse(fs.readFileSync(process.argv[2], 'utf8'))));
}
