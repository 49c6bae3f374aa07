#!/usr/bin/env node
/**
 * Prints the one-line summary `N passed, N failed[, N skipped]` of one or more `jest --json` results files
 * (scripts/test.sh writes one per jest pass: the suite, then the file tests on S3) and exits non-zero when
 * the run was not green. Used by scripts/test.sh and .ci/run.
 *
 * Usage: node scripts/jest-summary.js [results.json ...]   (default: .data/test/jest-results.json)
 *
 * A suite that failed to run (import error, throwing beforeAll/afterAll) has no failed test of
 * its own, so it is counted as one failure: a crashing suite must never make the run look green.
 * A missing or unreadable results file (jest crashed, or never ran) also counts as one failure.
 * No dependencies: it must work before and without node_modules.
 */
'use strict';

const fs = require('fs');
const path = require('path');

const files = process.argv.length > 2 ? process.argv.slice(2) : [path.join('.data', 'test', 'jest-results.json')];
const num = (v) => (Number.isFinite(v) ? v : 0);

let passed = 0;
let failed = 0;
let skipped = 0;
let green = true;
for (const file of files) {
  let results;
  try {
    results = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    console.error(`jest-summary: no usable jest results in ${file} (${err.code || err.message}); jest did not run or crashed`);
    failed += 1;
    green = false;
    continue;
  }
  // Each pass after the first names itself in its failures (`[s3]`), since its test names repeat the first's.
  const pass = files.length > 1 && file !== files[0] ? `[${path.basename(file, '.json').replace(/^jest-results-?/, '')}] ` : '';
  const suites = Array.isArray(results.testResults) ? results.testResults : [];

  // Suites that failed although none of their tests did: they failed to run.
  const brokenSuites = suites.filter(
    (s) => s.status === 'failed' && !(s.assertionResults || []).some((a) => a.status === 'failed'),
  );
  const runtimeErrors = Math.max(num(results.numRuntimeErrorTestSuites), brokenSuites.length);

  passed += num(results.numPassedTests);
  failed += num(results.numFailedTests) + runtimeErrors;
  skipped += num(results.numPendingTests) + num(results.numTodoTests);
  if (results.success === false) green = false;

  // Name what broke on stderr, so the last stdout line stays the bare summary.
  for (const s of brokenSuites) {
    console.error(`jest-summary: ${pass}suite failed to run: ${path.relative(process.cwd(), s.name)}`);
  }
  for (const s of suites) {
    for (const a of s.assertionResults || []) {
      if (a.status === 'failed') {
        console.error(`jest-summary: ${pass}failed: ${path.relative(process.cwd(), s.name)} > ${a.fullName || a.title}`);
      }
    }
  }
}

console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed === 0 && green ? 0 : 1);
