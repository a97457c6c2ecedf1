// Mutation testing (`npm run test:mutation`, not part of `npm test`): how many deliberate defects
// in the modules a defect would hurt most the tests catch. Scores per module: test/README.md.
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.json',
  coverageAnalysis: 'perTest',
  // Mutants that only run while a module loads or a test file's beforeAll builds an app would each
  // need every test run again (hours here); they are reported as ignored instead.
  ignoreStatic: true,
  mutate: [
    'src/pagination/cursor.ts',
    'src/keys/scopes.ts',
    'src/keys/secret-token.ts',
    'packages/contract/src/token-format.ts',
    'src/analytics/rates.ts',
    'src/analytics/significance.ts',
    'src/webhooks/signing.ts',
    'src/webhooks/ssrf-guard.ts',
    'src/text/decimal-integer.ts',
    'src/text/decimal-number.ts',
    'src/http/validation/query-numbers.ts',
    'packages/contract/src/operation-requirements.ts',
    'src/http/guards/scope-guard.ts',
    'src/http/guards/subscription-guard.ts',
  ],
  concurrency: 2,
  timeoutMS: 20_000,
  // The first run measures which test covers which mutant: minutes on a busy two-core machine.
  dryRunTimeoutMinutes: 40,
  reporters: ['clear-text', 'progress-append-only', 'json', 'html'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
