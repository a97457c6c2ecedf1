// orval's configuration for test/sdk/five-generators.test.ts (paths come from the test's environment).
import { defineConfig } from 'orval';

export default defineConfig({
  workspace: {
    input: { target: process.env.SDK_SPEC! },
    output: {
      target: `${process.env.SDK_OUT!}/api.ts`,
      client: 'fetch',
      // mutator: orval's fetch client sends no credential and no base URL of its own, and parses
      // every non-NDJSON body as JSON (a CSV export throws); its documentation's answer to all
      // three is a custom fetch function (./orval-fetch.ts, copied beside the output by the test),
      // which every generated function then calls.
      override: { mutator: { path: process.env.SDK_ORVAL_MUTATOR!, name: 'customFetch' } },
    },
  },
});
