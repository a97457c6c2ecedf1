// AsyncAPI half of the codegen:
//   generated/asyncapi.json   the bundled webhook contract, self-contained (served at /asyncapi.json)
//   generated/events.d.ts     TypeScript types of every delivery body, its data and its headers
// The payload schemas are the OpenAPI schema files themselves (one definition, two documents), so
// the types come from the bundle's components.schemas, hoisted there by redocly.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { compile } from 'json-schema-to-typescript';
import { root, runTool } from './run-tool.mjs';

export const ASYNCAPI_SOURCE = 'asyncapi/asyncapi.yaml';
export const ASYNCAPI_LINT_CONFIG = 'asyncapi/redocly.yaml';

/** Bundles the AsyncAPI document into `file` with every $ref local to it. */
export function bundleAsyncApi(file) {
  runTool('redocly', ['bundle', ASYNCAPI_SOURCE, '--config', ASYNCAPI_LINT_CONFIG, '--ext', 'json', '-o', file], { quiet: true });
  const doc = JSON.parse(readFileSync(file, 'utf8'));
  writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
  return doc;
}

function resolveLocal(doc, node) {
  let current = node;
  for (let depth = 0; current?.$ref; depth += 1) {
    if (depth > 20 || !current.$ref.startsWith('#/')) throw new Error(`cannot resolve ${current.$ref}`);
    current = current.$ref.slice(2).split('/').reduce((n, k) => n?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  }
  return current;
}

/** The name of the components.schemas entry a `$ref` points at. */
function schemaName(ref) {
  const match = /^#\/components\/schemas\/([^/]+)$/.exec(ref ?? '');
  if (!match) throw new Error(`expected a $ref to #/components/schemas/..., got ${ref}`);
  return match[1];
}

/** Every message of the document in operation order: its event name, payload and headers schema names. */
export function listEventMessages(doc) {
  return Object.values(doc.operations ?? {}).flatMap((operation) => (operation.messages ?? []).map((ref) => {
    const message = resolveLocal(doc, ref);
    const payload = resolveLocal(doc, message.payload);
    const dataRef = payload?.properties?.data?.$ref;
    return {
      event: message.name,
      payload: schemaName(message.payload.$ref),
      data: schemaName(dataRef),
      headers: schemaName(message.headers?.$ref),
    };
  }));
}

function retarget(node) {
  if (Array.isArray(node)) return node.map(retarget);
  if (!node || typeof node !== 'object') return node;
  const out = {};
  for (const [k, v] of Object.entries(node)) {
    out[k] = k === '$ref' && typeof v === 'string' ? v.replace('#/components/schemas/', '#/definitions/') : retarget(v);
  }
  return out;
}

async function eventTypes(doc, banner) {
  const events = listEventMessages(doc);
  const definitions = retarget(doc.components?.schemas ?? {});
  // A title per definition makes json-schema-to-typescript name each type after its schema.
  for (const [name, schema] of Object.entries(definitions)) schema.title = name;
  const rootSchema = {
    title: 'WebhookEvent',
    description: 'The body of any webhook delivery, told apart by `event`.',
    definitions,
    oneOf: events.map((e) => ({ $ref: `#/definitions/${e.payload}` })),
  };
  const options = { bannerComment: '', additionalProperties: false, strictIndexSignatures: true, format: true, style: { singleQuote: true } };
  let types = await compile(rootSchema, 'WebhookEvent', options);
  // Header schemas are not reachable from the bodies; each is compiled on its own (they hold no $ref).
  for (const name of new Set(events.map((e) => e.headers))) types += await compile(definitions[name], name, options);
  const eventUnion = events.map((e) => `\n  | '${e.event}'`).join('');
  const byEvent = events.map((e) => `  '${e.event}': ${e.payload};`).join('\n');
  const dataByEvent = events.map((e) => `  '${e.event}': ${e.data};`).join('\n');
  return `${banner}/* eslint-disable */
${types}
/** Every event type of the AsyncAPI document. */
export type EventType =${eventUnion};
/** The delivery body of each event type. */
export interface EventEnvelopes {
${byEvent}
}
/** The \`data\` of each event type. */
export interface EventPayloads {
${dataByEvent}
}
`;
}

export async function generateAsyncApi(outDir, banner) {
  if (!existsSync(path.join(root, ASYNCAPI_SOURCE))) return;
  const doc = bundleAsyncApi(path.join(outDir, 'asyncapi.json'));
  writeFileSync(path.join(outDir, 'events.d.ts'), await eventTypes(doc, banner));
}
