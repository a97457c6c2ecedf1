// Turns the AsyncAPI 3.0 document's events into OpenAPI 3.1 `webhooks`, so one reference page
// shows the HTTP APIs and the events side by side. Used only for the docs copy of the contract:
// the published /openapi.json and /asyncapi.json stay exactly as bundled.
import { nodeAt } from '@workspace-read-api/contract/json-pointer.js';

type Json = Record<string, unknown>;

export interface WebhookEvent {
  /** The event type as deliveries carry it, e.g. `content.status_updated`. */
  event: string;
  title?: string;
  summary?: string;
  description?: string;
  contentType: string;
  payload?: Json;
  headers?: Json;
  examples: Array<{ name?: string; summary?: string; payload?: unknown; headers?: Json }>;
}

export interface ConvertedWebhooks {
  webhooks: Record<string, Json>;
  /** AsyncAPI schemas to add to the OpenAPI document's components, already renamed where needed. */
  schemas: Record<string, Json>;
  events: WebhookEvent[];
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Follows a local `#/...` reference inside `doc`; other values come back as they are. */
function resolveLocal(doc: Json, value: unknown, seen = new Set<string>()): unknown {
  if (!isObject(value) || typeof value.$ref !== 'string' || !value.$ref.startsWith('#/')) return value;
  if (seen.has(value.$ref)) return value;
  seen.add(value.$ref);
  // A `$ref` is a URI fragment: percent-decoded, it is the JSON pointer.
  const target = nodeAt(doc, decodeURIComponent(value.$ref));
  return target === undefined ? value : resolveLocal(doc, target, seen);
}

const isSchemaRef = (v: unknown) => isObject(v) && typeof v.$ref === 'string' && v.$ref.startsWith('#/components/schemas/');

/**
 * A message's payload or headers schema. A reference to a named schema stays a reference (the
 * page then shows the schema's name); AsyncAPI 3's multi-format wrapper `{schemaFormat, schema}`
 * is unwrapped.
 */
function unwrapSchema(doc: Json, value: unknown, keepNamed: boolean): Json | undefined {
  const resolved = keepNamed && isSchemaRef(value) ? value : resolveLocal(doc, value);
  if (!isObject(resolved)) return undefined;
  if ('schemaFormat' in resolved && 'schema' in resolved) return unwrapSchema(doc, resolved.schema, keepNamed);
  return resolved;
}

/** Every message the service sends: those of `send` operations, else every declared message. */
function sentMessages(doc: Json): Array<[string, Json]> {
  const found = new Map<Json, string>();
  const add = (key: string, ref: unknown) => {
    const message = resolveLocal(doc, ref);
    if (isObject(message) && !found.has(message)) found.set(message, key);
  };
  const operations = isObject(doc.operations) ? doc.operations : {};
  for (const op of Object.values(operations)) {
    if (!isObject(op) || op.action !== 'send') continue;
    const channel = resolveLocal(doc, op.channel);
    const listed = Array.isArray(op.messages) && op.messages.length > 0
      ? op.messages
      : Object.values(isObject(channel) && isObject(channel.messages) ? channel.messages : {});
    for (const ref of listed) add(isObject(ref) && typeof ref.$ref === 'string' ? ref.$ref.split('/').pop()! : 'message', ref);
  }
  if (found.size === 0) {
    const components = isObject(doc.components) && isObject(doc.components.messages) ? doc.components.messages : {};
    for (const [key, ref] of Object.entries(components)) add(key, ref);
  }
  return [...found].map(([message, key]) => [key, message]);
}

/** Lists the events of an AsyncAPI 3.0 document with their payload schema and examples. */
export function listWebhookEvents(doc: Json): WebhookEvent[] {
  const defaultContentType = typeof doc.defaultContentType === 'string' ? doc.defaultContentType : 'application/json';
  return sentMessages(doc).map(([key, message]) => {
    const examples = Array.isArray(message.examples) ? message.examples.filter(isObject) : [];
    return {
      event: typeof message.name === 'string' ? message.name : key,
      ...(typeof message.title === 'string' ? { title: message.title } : {}),
      ...(typeof message.summary === 'string' ? { summary: message.summary } : {}),
      ...(typeof message.description === 'string' ? { description: message.description } : {}),
      contentType: typeof message.contentType === 'string' ? message.contentType : defaultContentType,
      ...(message.payload !== undefined ? { payload: unwrapSchema(doc, message.payload, true) } : {}),
      ...(message.headers !== undefined ? { headers: unwrapSchema(doc, message.headers, false) } : {}),
      examples: examples.map((e) => ({
        ...(typeof e.name === 'string' ? { name: e.name } : {}),
        ...(typeof e.summary === 'string' ? { summary: e.summary } : {}),
        ...('payload' in e ? { payload: e.payload } : {}),
        ...(isObject(e.headers) ? { headers: e.headers } : {}),
      })),
    };
  });
}

/** Rewrites every `#/components/schemas/<old>` reference according to `renames`. */
function renameRefs(value: unknown, renames: Map<string, string>): unknown {
  if (Array.isArray(value)) return value.map((v) => renameRefs(v, renames));
  if (!isObject(value)) return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')) {
      const name = v.slice('#/components/schemas/'.length);
      out[k] = `#/components/schemas/${renames.get(name) ?? name}`;
    } else out[k] = renameRefs(v, renames);
  }
  return out;
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Merges the AsyncAPI schemas into the OpenAPI namespace: both documents bundle the same shared
 * schema files, so most names are identical definitions; a name that differs is prefixed.
 */
function mergeSchemas(asyncDoc: Json, openapiSchemas: Json): { schemas: Record<string, Json>; renames: Map<string, string> } {
  const source = isObject(asyncDoc.components) && isObject(asyncDoc.components.schemas) ? asyncDoc.components.schemas : {};
  const renames = new Map<string, string>();
  for (const [name, schema] of Object.entries(source)) {
    if (name in openapiSchemas && !sameJson(openapiSchemas[name], schema)) {
      let candidate = `Webhook${name}`;
      for (let i = 2; candidate in openapiSchemas || candidate in source; i++) candidate = `Webhook${name}${i}`;
      renames.set(name, candidate);
    }
  }
  const schemas: Record<string, Json> = {};
  for (const [name, schema] of Object.entries(source)) {
    if (!isObject(schema)) continue;
    const target = renames.get(name) ?? name;
    if (target in openapiSchemas) continue;
    schemas[target] = renameRefs(schema, renames) as Json;
  }
  return { schemas, renames };
}

/** Message headers (an object schema) as OpenAPI header parameters, one per property. */
function headerParameters(headers: Json | undefined): Json[] {
  if (!headers || !isObject(headers.properties)) return [];
  const required = new Set(Array.isArray(headers.required) ? headers.required : []);
  return Object.entries(headers.properties).filter(([, s]) => isObject(s)).map(([name, schema]) => {
    const { description, ...rest } = schema as Json;
    return {
      name,
      in: 'header',
      required: required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
    };
  });
}

/** The events as OpenAPI 3.1 `webhooks` (one POST each), plus the schemas they reference. */
export function webhooksFromAsyncApi(asyncDoc: Json, openapiSchemas: Json, tag: string): ConvertedWebhooks {
  const { schemas, renames } = mergeSchemas(asyncDoc, openapiSchemas);
  const events = listWebhookEvents(asyncDoc);
  const webhooks: Record<string, Json> = {};
  for (const e of events) {
    const payload = e.payload ? renameRefs(e.payload, renames) : undefined;
    const withPayload = e.examples.filter((x) => x.payload !== undefined);
    const media: Json = { ...(payload ? { schema: payload } : {}) };
    if (withPayload.length === 1) media.example = withPayload[0]!.payload;
    if (withPayload.length > 1) {
      media.examples = Object.fromEntries(withPayload.map((x, i) => [x.name ?? `example${i + 1}`, {
        ...(x.summary ? { summary: x.summary } : {}),
        value: x.payload,
      }]));
    }
    const lead = [e.title ?? e.summary, e.title && e.summary ? e.summary : undefined].filter(Boolean).join('\n\n');
    const description = [lead, e.description].filter(Boolean).join('\n\n');
    webhooks[e.event] = {
      post: {
        operationId: `webhook_${e.event.replace(/[^A-Za-z0-9]+/g, '_')}`,
        summary: e.event,
        ...(description ? { description } : {}),
        tags: [tag],
        // Deliveries are signed (see the headers), not authenticated with the API's keys.
        security: [],
        parameters: headerParameters(e.headers ? renameRefs(resolveHeaderRefs(e.headers, asyncDoc), renames) as Json : undefined),
        requestBody: { required: true, content: { [e.contentType]: media } },
        responses: {
          '2XX': { description: 'Any 2xx answer within 15 seconds acknowledges the delivery.' },
          default: { description: 'Anything else (another status, a redirect, a timeout or a connection error) is a failed attempt, retried with exponential backoff.' },
        },
      },
    };
  }
  return { webhooks, schemas, events };
}

/** Header property schemas may be `$ref`s to AsyncAPI schemas; inline them for the parameter list. */
function resolveHeaderRefs(headers: Json, doc: Json): Json {
  if (!isObject(headers.properties)) return headers;
  const properties: Json = {};
  for (const [name, schema] of Object.entries(headers.properties)) {
    const resolved = resolveLocal(doc, schema);
    properties[name] = isObject(resolved) && isObject(schema) && typeof schema.description === 'string'
      ? { ...resolved, description: schema.description }
      : resolved;
  }
  return { ...headers, properties };
}
