// `npm test`: type-check and lint, then every test suite (unit, API on PGlite and PostgreSQL, browser),
// ending with one line that adds them all up: `N passed, N failed`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const isCi = process.env.CI === 'true';
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
let passed = 0;
let failed = 0;
const problems = [];

function banner(text) {
  console.log(`\n=== ${text} ===`);
}

function run(command, args, options = {}) {
  return spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
}

async function isReachable(url) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || (url.startsWith('redis') ? 6379 : 5432)) });
    socket.setTimeout(3000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

// 1. Type-check and lint the whole tree.
banner('check: types and lint');
const check = run(process.execPath, ['scripts/typecheck.mjs']);
const lint = run(process.execPath, ['node_modules/@biomejs/biome/bin/biome', 'check', '.']);
if (check.status === 0 && lint.status === 0) {
  passed += 1;
} else {
  failed += 1;
  problems.push('npm run check failed (types or lint)');
}

// 2. Decide which suites can run here; under CI a missing dependency is a failure, never a skip.
const projects = ['unit', 'gateway', 'api', 'fleet'];
if (process.env.TEST_DATABASE_URL) {
  if (!(await isReachable(process.env.TEST_DATABASE_URL))) {
    console.error(`PostgreSQL is not reachable at TEST_DATABASE_URL (${process.env.TEST_DATABASE_URL}).`);
    failed += 1;
    problems.push('PostgreSQL not reachable');
    delete process.env.TEST_DATABASE_URL;
  }
} else if (isCi) {
  console.error('CI=true but TEST_DATABASE_URL is not set: the API suites must also run on PostgreSQL.');
  failed += 1;
  problems.push('TEST_DATABASE_URL missing under CI');
} else {
  console.log('TEST_DATABASE_URL is not set: the API suites run on PGlite only.');
}
if (process.env.TEST_REDIS_URL) {
  if (!(await isReachable(process.env.TEST_REDIS_URL))) {
    console.error(`Redis is not reachable at TEST_REDIS_URL (${process.env.TEST_REDIS_URL}).`);
    failed += 1;
    problems.push('Redis not reachable');
    delete process.env.TEST_REDIS_URL;
  }
} else if (isCi) {
  console.error('CI=true but TEST_REDIS_URL is not set: the suites of shared state must run on Redis.');
  failed += 1;
  problems.push('TEST_REDIS_URL missing under CI');
} else {
  console.log('TEST_REDIS_URL is not set: the Redis suites are skipped.');
}
if (existsSync(chromiumPath)) {
  projects.push('e2e');
} else if (isCi) {
  console.error(`CI=true but Chromium is missing at ${chromiumPath}: the browser tests cannot run.`);
  failed += 1;
  problems.push('Chromium missing under CI');
} else {
  console.warn(
    `\n!!! SKIPPING THE BROWSER TESTS: Chromium is not installed at ${chromiumPath}.\n` +
      '!!! Install it with `sudo apt-get install -y chromium` (Debian/Ubuntu), or set CHROMIUM_PATH.\n',
  );
}

// 3. Run the suites through vitest, reading the counts from its JSON report.
const report = join(root, '.test-results/vitest.json');
mkdirSync(join(root, '.test-results'), { recursive: true });
rmSync(report, { force: true });
banner(`tests: ${projects.join(', ')}`);
const projectArgs = projects.flatMap((project) => ['--project', project]);
const tests = run(process.execPath, [
  'node_modules/vitest/vitest.mjs',
  'run',
  ...projectArgs,
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report}`,
]);
if (existsSync(report)) {
  const results = JSON.parse(readFileSync(report, 'utf8'));
  passed += results.numPassedTests;
  failed += results.numFailedTests;
  // A suite that failed to load has no failed tests but must still fail the run.
  const brokenFiles = results.testResults.filter(
    (file) => file.status === 'failed' && file.assertionResults.length === 0,
  );
  if (brokenFiles.length > 0) {
    failed += brokenFiles.length;
    problems.push(`${brokenFiles.length} test file(s) failed to run`);
  }
} else {
  failed += 1;
  problems.push('vitest wrote no report');
}
if (tests.status !== 0 && failed === 0) {
  failed += 1;
  problems.push(`vitest exited with ${tests.status}`);
}

if (problems.length > 0) {
  console.log(`\nProblems: ${problems.join('; ')}`);
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
