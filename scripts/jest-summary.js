#!/usr/bin/env node
/**
 * Prints the one-line summary `N passed, N failed[, N skipped]` of a `jest --json` results file
 * and exits non-zero when the run was not green. Used by scripts/test.sh and .ci/run.
 *
 * Usage: node scripts/jest-summary.js [results.json]   (default: .data/test/jest-results.json)
 *
 * A suite that failed to run (import error, throwing beforeAll/afterAll) has no failed test of
 * its own, so it is counted as one failure: a crashing suite must never make the run look green.
 * A missing or unreadable results file (jest crashed, or never ran) also counts as one failure.
 * No dependencies: it must work before and without node_modules.
 */
'use strict';

const fs = require('fs');
const path = require('path');

const file = process.argv[2] || path.join('.data', 'test', 'jest-results.json');

let results;
try {
  results = JSON.parse(fs.readFileSync(file, 'utf8'));
} catch (err) {
  console.error(`jest-summary: no usable jest results in ${file} (${err.code || err.message}); jest did not run or crashed`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}

const num = (v) => (Number.isFinite(v) ? v : 0);
const suites = Array.isArray(results.testResults) ? results.testResults : [];

// Suites that failed although none of their tests did: they failed to run.
const brokenSuites = suites.filter(
  (s) => s.status === 'failed' && !(s.assertionResults || []).some((a) => a.status === 'failed'),
);
const runtimeErrors = Math.max(num(results.numRuntimeErrorTestSuites), brokenSuites.length);

const passed = num(results.numPassedTests);
const failed = num(results.numFailedTests) + runtimeErrors;
const skipped = num(results.numPendingTests) + num(results.numTodoTests);

// Name what broke on stderr, so the last stdout line stays the bare summary.
for (const s of brokenSuites) console.error(`jest-summary: suite failed to run: ${path.relative(process.cwd(), s.name)}`);
for (const s of suites) {
  for (const a of s.assertionResults || []) {
    if (a.status === 'failed') console.error(`jest-summary: failed: ${path.relative(process.cwd(), s.name)} > ${a.fullName || a.title}`);
  }
}

console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed === 0 && results.success !== false ? 0 : 1);
