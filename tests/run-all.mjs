// `npm test`: type check and dependency-rule lint side by side, then every vitest project (unit, server on PGlite and
// PostgreSQL, browser journeys). Ends with one plain "N passed, N failed" line.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { timingTable } from './support/timing-table.mjs';

const bin = (name) => path.join(process.cwd(), 'node_modules/.bin', name);
/** Runs a check with its output held, so two checks side by side print one after the other. */
const check = (label, cmd, args) =>
  new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => {
      console.log(`\n▶ ${label} (${((Date.now() - started) / 1000).toFixed(1)} s)${out.trim() ? `\n${out.trimEnd()}` : ''}`);
      resolve(code ?? 1);
    });
  });

// The type check and the lint are one process each: side by side they take the time of the longer one.
const [typeCheck, lint] = await Promise.all([
  check('type check (tsc)', bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']),
  check('dependency rules (eslint)', bin('eslint'), ['.']),
]);
if (typeCheck !== 0 || lint !== 0) {
  console.log(`\ntests: 0 passed, 1 failed (${typeCheck !== 0 ? 'type check' : 'lint'})`);
  process.exit(1);
}

// One vitest process, its projects in turn (unit, server, e2e). Tried: the journeys in a second process beside the
// server specs. On two cores both then ran about twice as slow (the suite is CPU-bound), so nothing was gained.
const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'aisa-vitest-')), 'report.json');
const extra = process.argv.slice(2);
console.log('\n▶ vitest (unit, server, e2e)');
const status = spawnSync(bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...extra], { stdio: 'inherit' }).status ?? 1;

let summary = null;
try {
  summary = JSON.parse(fs.readFileSync(report, 'utf8'));
} catch {
  /* vitest did not get as far as writing its report */
}
if (!summary) {
  console.log('\ntests: 0 passed, 1 failed (no report)');
  process.exit(status || 1);
}
console.log(timingTable(summary));
const skipped = summary.numPendingTests + summary.numTodoTests;
// A run that failed outside any test (an unhandled error, a failed setup) counts as one failure.
const failed = summary.numFailedTests || (status !== 0 ? 1 : 0);
console.log(`\ntests: ${summary.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(status !== 0 || summary.numFailedTests > 0 || summary.numPassedTests === 0 ? 1 : 0);
