import { defineConfig } from 'vitest/config';
import { markdownPlugin } from './apps/web/build/markdown-plugin.ts';

// Five suites: pure rules (unit), the gateway on real sockets (gateway, with the Help Center's examples
// run against it from docs-tests/), the API over real HTTP on real databases (api), many processes on
// PostgreSQL and Redis (fleet), and browser journeys (e2e).
export default defineConfig({
  test: {
    projects: [
      {
        // The web app's modules import its Markdown content, as in the app's own build.
        plugins: [markdownPlugin()],
        test: {
          name: 'unit',
          sequence: { groupOrder: 2 },
          // Two files at a time (vitest's default on 2 cores is one): pure rules, nothing shared.
          maxWorkers: 2,
          include: [
            'packages/**/src/**/*.test.ts',
            'apps/web/src/**/*.test.{ts,tsx}',
            'apps/web/build/**/*.test.ts',
            'apps/server/src/**/*.unit.test.ts',
          ],
          exclude: ['**/*.socket.test.ts', '**/node_modules/**'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'gateway',
          sequence: { groupOrder: 1 },
          include: [
            'packages/gateway/src/**/*.socket.test.ts',
            'docs-tests/**/*.socket.test.ts',
            'bench/**/*.socket.test.ts',
          ],
          environment: 'node',
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'api',
          include: ['apps/server/src/**/*.test.ts'],
          exclude: ['apps/server/src/**/*.unit.test.ts', 'apps/server/src/cli/fleet-*.test.ts'],
          environment: 'node',
          // Two files at a time even on 2 cores (vitest's default there is one): these suites mostly wait
          // on PostgreSQL, Redis, sockets and timers, so a second file halves their time.
          maxWorkers: 2,
          // Projects with their own worker count run as groups of their own, one group after another.
          sequence: { groupOrder: 0 },
          // The files of a worker share one module graph: each file loading the whole server anew cost
          // about 4 s of CPU (24 route suites: 117 s isolated, 75 s shared). Every file makes its own
          // servers and databases and closes them, so nothing of one is left to the next.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          // The fleets of processes in workers of their own, after the rest: its Redis relay runs in the
          // test process, and a worker still holding the API suites' leftovers paused it long enough for
          // the gateways to fall back to their own limits (twice in CI with the API files sharing workers).
          name: 'fleet',
          sequence: { groupOrder: 4 },
          include: ['apps/server/src/cli/fleet-*.test.ts'],
          // One file at a time: two fleets at once would load each other's gateways.
          fileParallelism: false,
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          name: 'e2e',
          sequence: { groupOrder: 3 },
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          // A browser on a loaded machine (two busy cores, CI) takes seconds to render what a request
          // changed: vitest's default 1 s for expect.poll failed journeys that were merely slow.
          expect: { poll: { timeout: 15_000 } },
          // Two files at a time: each starts its own server on a fresh embedded database (about 7 s
          // spent waiting on it) and a browser, so two overlap well even on 2 cores.
          maxWorkers: 2,
        },
      },
    ],
  },
});
