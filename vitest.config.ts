import { defineConfig } from 'vitest/config';
import { LongestFirstSequencer } from './test/setup/longest-first-sequencer.js';
import { workspacePackageAliases } from './test/setup/workspace-package-aliases.js';

// Three lanes, all run by `npm test`, at the same time, each chosen by folder (test/README.md has
// the figures and what each folder holds):
// - fast: every test outside the slow folders: unit/, contract/, integration/, http/ (behaviour the
//   store never sees: the HTTP conventions, the parser, routing, validation and the guards in
//   front of the store, the logs, the reference guides, the contract-test checker), stores/ (tests
//   that open both stores themselves: the parity tests, PostgreSQL's own), mock/. Files share a
//   worker's module cache (isolate: false): each test is isolated by its own data (a fresh SQLite
//   file, workspace, server on an ephemeral port), never by process isolation, so nothing may
//   register hooks at import time or keep module-level state between tests.
// - slow: the folders of end-to-end runs that start processes, browsers or code generators (SDK
//   generation, the reference page in Chromium, crash and memory tests, spawned CLI runs), each
//   file in its own process. They spawn the compiled dist/, rebuilt first when src/ changed since.
// - fast-postgres: contract/ and integration/ again with WSAPI_TEST_STORE=postgres, so every store
//   the test helpers open is a fresh PostgreSQL database (test/support/test-server.ts). A test
//   whose answers do not come from the store belongs in http/ (once, on SQLite); one that opens
//   both stores itself, in stores/.
const SLOW_FOLDERS = ['sdk', 'prism', 'clients', 'browser', 'cli', 'deploy', 'docs', 'runtime', 'scaffold', 'process'];
const SLOW = SLOW_FOLDERS.map((folder) => `test/${folder}/**/*.test.ts`);

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
          isolate: false,
          env: { WSAPI_TEST_STORE: 'postgres' },
        },
      },
      { resolve: { alias }, test: { ...lane, name: 'slow', include: SLOW, globalSetup: ['test/setup/built-dist.global.ts'] } },
    ],
  },
});
