import { defineConfig } from 'vitest/config';
import { workspacePackageAliases } from './test/setup/workspace-package-aliases.js';

// The tests Stryker runs (stryker.config.mjs, `npm run test:mutation`): the unit tests and the
// HTTP tests that exercise the mutated modules, on SQLite, in one process pool. Stryker measures
// which test covers which mutant, then runs only those tests against each mutant.
export default defineConfig({
  resolve: { alias: workspacePackageAliases },
  test: {
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    include: [
      'test/unit/**/*.test.ts',
      'test/contract/matrices.test.ts',
      'test/http/security/integer-parameters.test.ts',
      'test/http/security/number-parameters.test.ts',
      'test/integration/security/read-guards.test.ts',
      'test/http/foundation/contract-requirements.test.ts',
      'test/http/security/credential-headers.test.ts',
      'test/integration/foundation/get-me.test.ts',
      'test/integration/webhooks-admin/create-api-key.test.ts',
      'test/integration/webhooks-admin/create-webhook.test.ts',
      'test/integration/webhooks-delivery/signed-delivery.test.ts',
      'test/integration/webhooks-delivery/ssrf-at-connect.test.ts',
      'test/integration/visibility/get-prompt-analytics.test.ts',
      'test/integration/visibility/list-prompts.test.ts',
      'test/process/events/feed-catch-up.test.ts',
    ],
    // Gates that spawn the whole toolchain: they test the repository, not these modules.
    exclude: ['test/unit/lint.test.ts', 'test/unit/dependency-rules.test.ts'],
  },
});
