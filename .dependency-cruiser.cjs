// The layer rule of src/ and packages/ (see src/README.md; `npm run deps:check`, run by `npm test`): imports point down only, and nothing is circular.
//   entry points (server.ts, cli/, mock/, demo/)
//   → http (app.ts, http/, docs/, console/)
//   → handlers/ (and operations/: what a handler is given and returns)
//   → domain (analytics, visibility, webhooks, import, admin, workspace, keys, pagination, events, simulator)
//   → store/'s entrance and dialects (store/index.ts, store/sqlite/, store/postgres/)
//   → import-engine/ (the import's rules: a dialect's `imports.run` drives them inside its transaction,
//     through ports the engine defines and the dialect implements)
//   → the rest of store/ (interfaces, statements and tables both dialects share)
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
const ENGINE = '^src/import-engine/';
// store/ without its entrance and dialects: what the engine and both dialects build on.
const SHARED_STORE = '^src/store/(?!sqlite/|postgres/|index\\.ts$)';
const OUTSIDE_STORE = '^src/(?!store/)';
const DIALECT = '^src/store/sqlite/';

const upward = (name, from, to) => ({ name, severity: 'error', from: { path: from }, to: { path: to } });

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    upward('store-imports-above', STORE, [ENTRY, HTTP, HANDLERS, DOMAIN]),
    upward('engine-imports-above', ENGINE, [ENTRY, HTTP, HANDLERS, DOMAIN]),
    // The engine is the same for every database: it sees none, nor the store's entrance, which opens one.
    upward('dialect-in-engine', ENGINE, ['^src/store/(sqlite|postgres)/', '^src/store/index\\.ts$', '^node_modules/(@types/)?(better-sqlite3|pg|pg-copy-streams)/']),
    upward('shared-store-imports-engine', SHARED_STORE, [ENGINE]),
    upward('domain-imports-above', DOMAIN, [ENTRY, HTTP, HANDLERS]),
    upward('handlers-import-above', HANDLERS, [ENTRY, HTTP]),
    upward('http-imports-entry', HTTP, [ENTRY]),
    upward('bottom-imports-above', '^src/(config|logger|supported-node)\\.ts$|^src/errors/', [ENTRY, HTTP, HANDLERS, DOMAIN, ENGINE, STORE]),
    upward('contract-imports-ours', '^packages/contract/', ['^src/', '^packages/contract-test/']),
    upward('checker-imports-service', '^packages/contract-test/', ['^src/']),
    upward('database-outside-store', OUTSIDE_STORE, [DIALECT, 'better-sqlite3']),
    // The interfaces and what both dialects share import no dialect. Besides index.ts, which opens
    // the SQLite store, only the copy from SQLite into PostgreSQL joins the two dialects, reading
    // the SQLite file through the one module SQLite keeps for it.
    upward('dialect-in-shared-store', '^src/store/(?!sqlite/|index\\.ts$|postgres/copy-from-sqlite\\.ts$)', [DIALECT]),
    upward('sqlite-in-copy', '^src/store/postgres/copy-from-sqlite\\.ts$', ['^src/store/sqlite/(?!copy-source\\.ts$)', 'better-sqlite3']),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^generated/' },
  },
};
