import { readdirSync, readFileSync } from 'node:fs';
import { followRefs } from './json-pointer.js';
import { once } from './once.js';

/** The methods an OpenAPI path item may hold, in the specification's order (which `Allow` follows too). */
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** The bundled contract documents, produced by `npm run codegen`: a fresh copy the caller may change. */
export function loadOpenApiDocument(): object {
  return JSON.parse(readFileSync(new URL('../../../generated/openapi.json', import.meta.url), 'utf8')) as object;
}

/** The bundled webhook contract (AsyncAPI 3.0), self-contained; produced by `npm run codegen`. */
export function loadAsyncApiDocument(): object {
  return JSON.parse(readFileSync(new URL('../../../generated/asyncapi.json', import.meta.url), 'utf8')) as object;
}

/** Where earlier majors of the OpenAPI document stay published (`contract/superseded/openapi-<version>.json`). */
const SUPERSEDED = new URL('../../../contract/superseded/', import.meta.url);

/**
 * The earlier majors of the OpenAPI document that the service still publishes, by version
 * (`1.2.0`), as released: client teams that generated from one keep reading it while they move
 * (CHANGELOG.md says for how long).
 */
function loadSupersededOpenApiDocuments(): Map<string, object> {
  const documents = new Map<string, object>();
  for (const name of readdirSync(SUPERSEDED).sort()) {
    const version = /^openapi-(\d+\.\d+\.\d+)\.json$/.exec(name)?.[1];
    if (version !== undefined) documents.set(version, JSON.parse(readFileSync(new URL(name, SUPERSEDED), 'utf8')) as object);
  }
  return documents;
}

/**
 * The documents an app is built from by default, read once per process and frozen: every app of
 * the process shares them, and the work built on them (packages/contract/src/per-contract.ts), so none may
 * change them.
 */
export const bundledContract = {
  openApi: once(() => deepFreeze(loadOpenApiDocument())),
  asyncApi: once(() => deepFreeze(loadAsyncApiDocument())),
  superseded: once(() => new Map([...loadSupersededOpenApiDocuments()].map(([version, doc]) => [version, deepFreeze(doc)]))),
};

/**
 * The `default:` the bundled contract gives a parameter of `components.parameters` (beside its
 * schema's `$ref`, or in the schema it names): for domain code that needs the value an operation's
 * request takes when the parameter is left out under a condition the schema cannot state.
 */
export function parameterDefault(name: string): unknown {
  const document = bundledContract.openApi() as { components?: { parameters?: Record<string, { schema?: { default?: unknown } }> } };
  const schema = document.components?.parameters?.[name]?.schema;
  const value = schema?.default ?? (followRefs(document, schema).node as { default?: unknown } | undefined)?.default;
  if (value === undefined) throw new Error(`the contract gives the parameter ${name} no default`);
  return value;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
