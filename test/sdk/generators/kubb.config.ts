// Kubb's configuration for test/sdk/five-generators.test.ts (paths come from the test's environment).
import { defineConfig } from '@kubb/core';
import { pluginClient } from '@kubb/plugin-client';
import { pluginOas } from '@kubb/plugin-oas';
import { pluginTs } from '@kubb/plugin-ts';

export default defineConfig({
  input: { path: process.env.SDK_SPEC! },
  // format: false: Kubb's CLI runs Prettier over everything it wrote (about 640 files), which
  // changes the layout and nothing a compiler or a caller sees, for about 9 s of CPU.
  output: { path: process.env.SDK_OUT!, clean: true, barrelType: 'named', format: false },
  plugins: [
    // validate: false: the contract is checked by `npm run spec:lint`; Kubb's own validation adds
    // seconds and nothing else.
    pluginOas({ validate: false }),
    // emptySchemaType 'void': a 304 has no body, which Kubb types as `any` by default (an `any`
    // alias per read); `void` says what it is.
    pluginTs({ emptySchemaType: 'void', unknownType: 'unknown' }),
    // client 'axios' (Kubb's default), not 'fetch': Kubb's fetch client parses every body as JSON,
    // so no export (CSV, NDJSON) can be downloaded with it; axios takes `responseType: 'text'` per
    // call. axios is pinned to 1.18.1, the last release Kubb's axios client type-checks with.
    // bundle: the client's source is written beside the generated code (Kubb 5's default): the
    // published declaration of @kubb/plugin-client/clients/axios imports a chunk that has none, so
    // without skipLibCheck it does not compile.
    pluginClient({ client: 'axios', bundle: true }),
  ],
});
