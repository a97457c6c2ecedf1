import { readFileSync } from 'node:fs';

/** The bundled contract documents, produced by `npm run codegen`. */
export function loadOpenApiDocument(): object {
  return JSON.parse(readFileSync(new URL('../generated/openapi.json', import.meta.url), 'utf8')) as object;
}

/** The bundled webhook contract (AsyncAPI 3.0), self-contained; produced by `npm run codegen`. */
export function loadAsyncApiDocument(): object {
  return JSON.parse(readFileSync(new URL('../generated/asyncapi.json', import.meta.url), 'utf8')) as object;
}
