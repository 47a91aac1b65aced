#!/usr/bin/env node
/**
 * `npm test`: every suite, each run even if an earlier one failed, then one summary line
 * `N passed, N failed` over all of them. Lint, format and typecheck count one check each; unit and
 * integration tests (Vitest) and browser journeys (Playwright) count their test cases. A suite that did
 * not run (no report) counts as failed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const results = [];
const run = (command, args, env = {}) =>
  spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } }).status === 0;

function check(name, command, args) {
  console.log(`\n▶ ${name}`);
  const ok = run(command, args);
  results.push({ name, passed: ok ? 1 : 0, failed: ok ? 0 : 1 });
  return ok;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

mkdirSync('test-results', { recursive: true });

check('lint', 'npx', ['eslint', '.']);
check('format', 'npx', ['prettier', '--check', '.']);
check('typecheck (web, common, tests)', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']);
// The server's own build settings (tsconfig.server.json) are type-checked by the build below, which runs
// that compiler and fails on its errors: not run twice.

console.log(
  `\n▶ unit and integration tests (${process.env.TEST_DATABASE_URL ? 'SQLite and PostgreSQL' : 'SQLite only: set TEST_DATABASE_URL for PostgreSQL'})`,
);
rmSync('test-results/vitest.json', { force: true });
run('npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  '--outputFile.json=test-results/vitest.json',
]);
const vitest = readJson('test-results/vitest.json');
if (vitest && vitest.numTotalTests > 0) {
  results.push({
    name: 'vitest',
    passed: vitest.numPassedTests,
    failed: vitest.numFailedTests + (vitest.success ? 0 : vitest.numFailedTestSuites),
  });
} else {
  results.push({ name: 'vitest (did not run)', passed: 0, failed: 1 });
}

const built = check('build', 'npm', ['run', 'build', '--silent']);
console.log('\n▶ browser journeys (Playwright, Debian chromium)');
rmSync('test-results/playwright.json', { force: true });
if (built)
  run('npx', ['playwright', 'test', '--reporter=list,json'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: 'test-results/playwright.json',
  });
const playwright = readJson('test-results/playwright.json');
if (
  playwright?.stats &&
  playwright.stats.expected + playwright.stats.unexpected + playwright.stats.flaky > 0
) {
  const { expected, unexpected, flaky } = playwright.stats;
  const setupFailed = (playwright.errors ?? []).length;
  results.push({ name: 'playwright', passed: expected, failed: unexpected + flaky + setupFailed });
} else {
  results.push({ name: 'playwright (did not run)', passed: 0, failed: 1 });
}

console.log('\nSuites:');
for (const r of results)
  console.log(`  ${r.failed ? '✗' : '✓'} ${r.name}: ${r.passed} passed, ${r.failed} failed`);
const passed = results.reduce((sum, r) => sum + r.passed, 0);
const failed = results.reduce((sum, r) => sum + r.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && existsSync('test-results') ? 0 : 1);
