#!/usr/bin/env node
// Prints one closing line, "tests: N passed, N failed", from the Vitest and Playwright JSON
// reports. A missing report counts as a failure: a runner that crashed ran nothing.
import { existsSync, readFileSync } from 'node:fs';

const [vitestPath, playwrightPath] = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;

if (existsSync(vitestPath)) {
  const report = JSON.parse(readFileSync(vitestPath, 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
} else {
  console.error(`No Vitest report at ${vitestPath}`);
  failed += 1;
}

if (existsSync(playwrightPath)) {
  const stats = JSON.parse(readFileSync(playwrightPath, 'utf8')).stats ?? {};
  passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
  failed += stats.unexpected ?? 0;
  skipped += stats.skipped ?? 0;
} else {
  console.error(`No Playwright report at ${playwrightPath}`);
  failed += 1;
}

console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
