// `npm test`: type check and dependency-rule lint, and beside them every vitest project (unit and server on PGlite
// and PostgreSQL in one process, the browser journeys in another). Ends with the time table and one plain
// "N passed, N failed" line.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readCpuLog, timingTable } from './support/timing-table.mjs';

const bin = (name) => path.join(process.cwd(), 'node_modules/.bin', name);
/** Runs a check with its output held, so it prints in one piece between the tests' lines. */
const check = (label, cmd, args) =>
  new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => {
      const failed = code !== 0;
      console.log(`\n▶ ${label} (${((Date.now() - started) / 1000).toFixed(1)} s)${failed ? ': FAILED, so the run fails' : ''}${out.trim() ? `\n${out.trimEnd()}` : ''}`);
      resolve({ label, failed });
    });
  });

// The type check and the lint run beside the tests, not before them: tsc is one core's work for about 40 s, and the
// suite is short of CPU, not of order. A failed check fails the run once the tests end; the tests are not stopped
// halfway, so nothing they started (servers, browsers, the PostgreSQL cluster) is left behind.
const checks = Promise.all([
  check('type check (tsc)', bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']),
  check('dependency rules (eslint)', bin('eslint'), ['.']),
]);

// Two vitest processes side by side: unit then server specs in one, the browser journeys in the other. Measured
// with process accounting: the server specs keep both cores busy, while a journey spends about half its time
// waiting on the page and the server, so the journeys fill the cores' idle time instead of running after the
// server specs. Each process writes its own report; the table and the counts are of both.
const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aisa-vitest-'));
// One media cache for both (media-global.ts uses it when set), so a clip or an avatar is made once per run.
const mediaCache = fs.mkdtempSync(path.join(os.tmpdir(), 'aisa-media-cache-'));
// Each spec file's CPU seconds (tests/support/file-cpu.ts), for the table.
const cpuLog = path.join(runDir, 'cpu.jsonl');
const extra = process.argv.slice(2);
const lane = (name, projects) =>
  new Promise((resolve) => {
    const report = path.join(runDir, `${name}.json`);
    const args = ['run', ...projects.flatMap((p) => ['--project', p]), '--reporter=default', '--reporter=json', `--outputFile.json=${report}`,
      // Files named after `npm test --` may all be in the other lane; a run that finds nothing at all fails below.
      '--passWithNoTests', ...extra];
    const child = spawn(bin('vitest'), args, { stdio: 'inherit', env: { ...process.env, TEST_MEDIA_CACHE: mediaCache, TEST_CPU_LOG: cpuLog } });
    child.on('close', (code) => {
      let summary = null;
      try {
        summary = JSON.parse(fs.readFileSync(report, 'utf8'));
      } catch {
        /* vitest did not get as far as writing its report */
      }
      resolve({ name, status: code ?? 1, summary });
    });
  });
console.log('\n▶ vitest: unit and server specs, and beside them the browser journeys');
const lanes = await Promise.all([lane('specs', ['unit', 'server']), lane('journeys', ['e2e'])]);
fs.rmSync(mediaCache, { recursive: true, force: true });
const failedChecks = (await checks).filter((c) => c.failed).map((c) => c.label);

const missing = lanes.filter((l) => !l.summary);
if (missing.length > 0) {
  console.log(`\ntests: 0 passed, ${1 + failedChecks.length} failed (no report from ${missing.map((l) => l.name).join(' and ')}${failedChecks.length ? `; failed: ${failedChecks.join(', ')}` : ''})`);
  process.exit(1);
}
const sum = (key) => lanes.reduce((n, l) => n + l.summary[key], 0);
console.log(timingTable({ testResults: lanes.flatMap((l) => l.summary.testResults) }, readCpuLog(cpuLog)));
const skipped = sum('numPendingTests') + sum('numTodoTests');
// A lane that failed outside any test (an unhandled error, a failed setup) counts as one failure.
const failed = (sum('numFailedTests') || lanes.filter((l) => l.status !== 0).length) + failedChecks.length;
const passed = sum('numPassedTests');
console.log(`\ntests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}${failedChecks.length ? ` (failed: ${failedChecks.join(', ')})` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
