// `npm test`: type check, dependency-rule lint, then every vitest project (unit, server on PGlite and
// PostgreSQL, browser journeys). Ends with one plain "N passed, N failed" line.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { timingTable } from './support/timing-table.mjs';

const bin = (name) => path.join(process.cwd(), 'node_modules/.bin', name);
const run = (label, cmd, args) => {
  console.log(`\n▶ ${label}`);
  const res = spawnSync(cmd, args, { stdio: 'inherit' });
  return res.status ?? 1;
};

if (run('type check (tsc)', bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']) !== 0) {
  console.log('\ntests: 0 passed, 1 failed (type check)');
  process.exit(1);
}
if (run('dependency rules (eslint)', bin('eslint'), ['.']) !== 0) {
  console.log('\ntests: 0 passed, 1 failed (lint)');
  process.exit(1);
}

const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'aisa-vitest-')), 'report.json');
const extra = process.argv.slice(2);
const status = run('vitest (unit, server, e2e)', bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...extra]);

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
