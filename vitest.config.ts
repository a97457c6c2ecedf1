import { defineConfig } from 'vitest/config';
import { LongestFirstSequencer } from './test/setup/longest-first-sequencer.js';
import { workspacePackageAliases } from './test/setup/workspace-package-aliases.js';

// Three lanes, all run by `npm test`, at the same time (test/README.md has the figures):
// - fast: every HTTP, contract, unit and in-process CLI test. Files share a worker's module cache
//   (isolate: false): each test is isolated by its own data (a fresh SQLite file, workspace,
//   server on an ephemeral port), never by process isolation, so nothing may register hooks at
//   import time or keep module-level state between tests.
// - slow: end-to-end runs that start processes, browsers or code generators (SDK generation, the
//   reference page in Chromium, crash and memory tests, spawned CLI runs), each file in its own
//   process. They spawn the compiled dist/, rebuilt first when src/ changed since.
// - fast-postgres: the tests of `fast` whose answers come from the store, again with
//   WSAPI_TEST_STORE=postgres, so every store the test helpers open is a fresh PostgreSQL database
//   (test/support/test-server.ts). HTTP-only behaviour (HTTP_ONLY below) runs once, on SQLite.
//   test/integration/store/ is left out: its parity tests already run both stores side by side;
//   so is test/integration/contract-test/, the tests of the `contract-test` checker, which sees
//   the server only through HTTP and takes minutes whatever the store.
//   What runs on SQLite only, and why: test/README.md.
const SLOW = [
  'test/sdk/**/*.test.ts',
  'test/prism/**/*.test.ts',
  'test/clients/**/*.test.ts',
  'test/browser/**/*.test.ts',
  'test/cli/**/*.test.ts',
  'test/unit/spec-lint.test.ts',
  'test/**/*crash*.test.ts',
  'test/**/*memory*.test.ts',
  'test/**/*-cli.test.ts',
  'test/**/*.process.test.ts',
  'test/integration/import/serving-during-a-real-import.test.ts',
];

// Behaviour the store never sees: the HTTP conventions, the parser, routing, validation and the
// guards in front of the store, the logs and the reference guides. Their code is the same whatever
// the store. The matrices stay on both: their cross-tenant cases are where each read's workspace
// filter is checked on PostgreSQL.
const HTTP_ONLY = [
  'test/integration/http-conventions/**',
  'test/integration/docs/**',
  'test/integration/security/contract-fuzz.test.ts',
  'test/integration/security/credential-headers.test.ts',
  'test/integration/security/integer-parameters.test.ts',
  'test/integration/security/number-parameters.test.ts',
  'test/integration/security/log-redaction.test.ts',
  'test/integration/security/uuid-case.test.ts',
  'test/integration/foundation/contract-requirements.test.ts',
  'test/integration/foundation/http-parser-errors.test.ts',
  'test/integration/foundation/logs.test.ts',
  'test/integration/foundation/rate-limit.test.ts',
  'test/integration/foundation/response-check.test.ts',
  'test/integration/foundation/route-match-count.test.ts',
  'test/integration/foundation/route-matching.test.ts',
  'test/integration/foundation/routes.test.ts',
  'test/integration/foundation/validation-per-operation.test.ts',
];

// Files that open a SQLite file whatever the lane (they hand it to a child process): the same run
// twice, so they run once.
const SQLITE_FILE = ['test/integration/events/feed-catch-up.test.ts'];

// Settings all lanes take. The lanes do not `extends` the root: a project that extends it runs
// the root's global setup again, and the run would start one PostgreSQL cluster per lane.
const lane = { pool: 'forks', testTimeout: 30_000, hookTimeout: 60_000 } as const;

const alias = workspacePackageAliases;

export default defineConfig({
  test: {
    ...lane,
    // One throwaway PostgreSQL cluster per run, shared by all lanes; each file that needs it
    // creates its own database.
    globalSetup: ['test/setup/postgres.global.ts'],
    // The lanes share these workers, so the slow lane's waits on processes, browsers and
    // receivers overlap with the fast lane's work. Vitest's default is one worker on two cores.
    maxWorkers: 3,
    // Longest files first across all lanes (vitest's own order runs one lane after the other).
    sequence: { sequencer: LongestFirstSequencer },
    // `npm run test:coverage` (the fast lane): every file under src/, loaded by a test or not, so
    // a module no test imports shows as 0 % instead of being left out (test/README.md has the
    // figures). generated/ and the tests are outside src/; type-only modules count for nothing.
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts', 'packages/*/src/**/*.ts'],
      // vitest matches `include` anywhere in a path: without this, clients/typescript/src/ counts too.
      exclude: ['clients/**'],
      reporter: [['text', { skipFull: true }], 'text-summary', 'json-summary', 'json'],
      reportsDirectory: 'coverage',
      // A test that fails on a loaded machine (a timing test) must not throw away the whole report.
      reportOnFailure: true,
    },
    projects: [
      { resolve: { alias }, test: { ...lane, name: 'fast', include: ['test/**/*.test.ts'], exclude: SLOW, isolate: false } },
      {
        resolve: { alias },
        test: {
          ...lane,
          name: 'fast-postgres',
          include: ['test/contract/**/*.test.ts', 'test/integration/**/*.test.ts'],
          exclude: [...SLOW, ...HTTP_ONLY, ...SQLITE_FILE, 'test/integration/store/**', 'test/integration/contract-test/**'],
          isolate: false,
          env: { WSAPI_TEST_STORE: 'postgres' },
        },
      },
      { resolve: { alias }, test: { ...lane, name: 'slow', include: SLOW, globalSetup: ['test/setup/built-dist.global.ts'] } },
    ],
  },
});
