import { defineConfig } from 'vitest/config';
import { markdownPlugin } from './apps/web/build/markdown-plugin.ts';

// Four suites: pure rules (unit), the gateway on real sockets (gateway, with the Help Center's examples
// run against it from docs-tests/), the API over real HTTP on real databases (api), and browser
// journeys (e2e).
export default defineConfig({
  test: {
    projects: [
      {
        // The web app's modules import its Markdown content, as in the app's own build.
        plugins: [markdownPlugin()],
        test: {
          name: 'unit',
          sequence: { groupOrder: 2 },
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
          exclude: ['apps/server/src/**/*.unit.test.ts'],
          environment: 'node',
          // Two files at a time even on 2 cores (vitest's default there is one): these suites mostly wait
          // on PostgreSQL, Redis, sockets and timers, so a second file halves their time.
          maxWorkers: 2,
          // Projects with their own worker count run as groups of their own, one group after another.
          sequence: { groupOrder: 0 },
          testTimeout: 30_000,
          hookTimeout: 60_000,
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
          fileParallelism: false,
        },
      },
    ],
  },
});
