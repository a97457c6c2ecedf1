// The layer rule of src/ and packages/ (see src/README.md; `npm run deps:check`, run by `npm test`): imports point down only, and nothing is circular.
//   entry points (server.ts, cli/, mock/, demo/)
//   → http (app.ts, http/, docs/, console/)
//   → handlers/ (and operations/: what a handler is given and returns)
//   → domain (analytics, visibility, webhooks, import, admin, workspace, keys, pagination, events, simulator)
//   → store/
//   → nothing of ours
// config.ts, logger.ts, supported-node.ts and errors/ sit at the bottom, usable by every layer.
// The workspace packages sit beneath all of src/: the contract library (packages/contract/) imports
// nothing of ours, and the checker (packages/contract-test/) imports the contract library only, so
// it can never hold a server to the service's own reading of the contract.
// Outside store/, code takes the `Store` interface (store/index.ts) and never a database: nothing
// there imports a dialect's folder (store/sqlite/) or its driver.
const ENTRY = '^src/(server\\.ts|cli/|mock/|demo/)';
const HTTP = '^src/(app\.ts|http/|docs/|console/)';
const HANDLERS = '^src/(handlers|operations)/';
const DOMAIN = '^src/(analytics|visibility|webhooks|import|admin|workspace|keys|pagination|events|simulator)/';
const STORE = '^src/store/';
const OUTSIDE_STORE = '^src/(?!store/)';
const DIALECT = '^src/store/sqlite/';

const upward = (name, from, to) => ({ name, severity: 'error', from: { path: from }, to: { path: to } });

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    upward('store-imports-above', STORE, [ENTRY, HTTP, HANDLERS, DOMAIN]),
    upward('domain-imports-above', DOMAIN, [ENTRY, HTTP, HANDLERS]),
    upward('handlers-import-above', HANDLERS, [ENTRY, HTTP]),
    upward('http-imports-entry', HTTP, [ENTRY]),
    upward('bottom-imports-above', '^src/(config|logger|supported-node)\\.ts$|^src/errors/', [ENTRY, HTTP, HANDLERS, DOMAIN, STORE]),
    upward('contract-imports-ours', '^packages/contract/', ['^src/', '^packages/contract-test/']),
    upward('checker-imports-service', '^packages/contract-test/', ['^src/']),
    upward('database-outside-store', OUTSIDE_STORE, [DIALECT, 'better-sqlite3']),
    // The interfaces and what both dialects share import no dialect. Besides index.ts, which opens
    // the SQLite store, only the copy from SQLite into PostgreSQL joins the two dialects.
    upward('dialect-in-shared-store', '^src/store/(?!sqlite/|index\\.ts$|copy-sqlite-to-postgres\\.ts$)', [DIALECT]),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(generated|node_modules)/' },
  },
};
