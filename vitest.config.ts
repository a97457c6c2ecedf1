import { defineConfig } from 'vitest/config';

// Two lanes, both run by `npm test`:
// - fast: every HTTP, contract, unit and in-process CLI test. Files share a worker's module cache
//   (isolate: false): each test is isolated by its own data (a fresh SQLite file, workspace,
//   server on an ephemeral port), never by process isolation, so nothing may register hooks at
//   import time or keep module-level state between tests.
// - slow: end-to-end runs that start processes, browsers or code generators (SDK generation, the
//   reference page in Chromium, crash and memory tests, spawned CLI runs), each file in its own
//   process.
const SLOW = [
  'test/sdk/**/*.test.ts',
  'test/browser/**/*.test.ts',
  'test/cli/**/*.test.ts',
  'test/unit/spec-lint.test.ts',
  'test/**/*crash*.test.ts',
  'test/**/*memory*.test.ts',
  'test/**/*-cli.test.ts',
  'test/**/*.process.test.ts',
];

export default defineConfig({
  test: {
    pool: 'forks',
    // One throwaway PostgreSQL cluster per run; each file that needs it creates its own database.
    globalSetup: ['test/setup/postgres.global.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: { name: 'fast', include: ['test/**/*.test.ts'], exclude: SLOW, isolate: false },
      },
      {
        extends: true,
        test: { name: 'slow', include: SLOW },
      },
    ],
  },
});
