import { HTTP_METHODS } from '@workspace-read-api/contract/documents.js';
import { requirementNote } from './requirement-note.js';
import { webhooksFromAsyncApi, type WebhookEvent } from './webhooks-from-asyncapi.js';

type Json = Record<string, unknown>;

export const WEBHOOK_EVENTS_TAG = 'Webhook events';

/** The two HTTP APIs, told apart by path prefix (the `servers` and paths of `openapi/openapi.yaml`). */
const API_GROUPS = [
  { name: 'Read API', prefix: '/api/v1/' },
  { name: 'Administration API', prefix: '/api/workspace/' },
] as const;
const OTHER_GROUP = 'Service';
/** The guide tags (`x-traitTag`: prose that holds for every operation, kept out of `info`). */
const GUIDE_GROUP = 'Overview';

const PATH_ITEM_METHODS: ReadonlySet<string> = new Set(HTTP_METHODS);

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface DocumentedOperation {
  method: string;
  path: string;
  operationId: string;
  summary: string;
  tags: string[];
}

/** Every operation of an OpenAPI document, in document order. */
export function listOperations(doc: Json): DocumentedOperation[] {
  const ops: DocumentedOperation[] = [];
  for (const [path, item] of Object.entries(isObject(doc.paths) ? doc.paths : {})) {
    if (!isObject(item)) continue;
    for (const [method, op] of Object.entries(item)) {
      if (!PATH_ITEM_METHODS.has(method) || !isObject(op) || typeof op.operationId !== 'string') continue;
      ops.push({
        method,
        path,
        operationId: op.operationId,
        summary: typeof op.summary === 'string' ? op.summary : op.operationId,
        tags: Array.isArray(op.tags) ? op.tags.filter((t): t is string => typeof t === 'string') : [],
      });
    }
  }
  return ops;
}

function groupOf(path: string): string {
  return API_GROUPS.find((g) => path.startsWith(g.prefix))?.name ?? OTHER_GROUP;
}

/**
 * Sidebar groups: the guide tags first, then each tag goes to the API its operations live in; a tag
 * spanning both is listed under each. Redoc hides a tag that no group lists, so every used tag is
 * placed somewhere.
 */
function tagGroups(doc: Json, webhookTag: string | undefined): Array<{ name: string; tags: string[] }> {
  const declaredTags = Array.isArray(doc.tags) ? doc.tags.filter(isObject) : [];
  const declared = declaredTags.map((t) => String(t.name));
  const guides = declaredTags.filter((t) => t['x-traitTag'] === true).map((t) => String(t.name));
  const byGroup = new Map<string, string[]>();
  const place = (group: string, tag: string) => {
    const tags = byGroup.get(group) ?? [];
    if (!tags.includes(tag)) tags.push(tag);
    byGroup.set(group, tags);
  };
  const ops = listOperations(doc);
  // Declared order first (the authors' order), then any tag only an operation mentions.
  const order = [...declared, ...ops.flatMap((o) => o.tags).filter((t) => !declared.includes(t))];
  for (const tag of order) {
    for (const op of ops) if (op.tags.includes(tag)) place(groupOf(op.path), tag);
  }
  const groups = [...API_GROUPS.map((g) => g.name), OTHER_GROUP]
    .filter((name) => byGroup.has(name))
    .map((name) => ({ name, tags: byGroup.get(name)! }));
  if (guides.length > 0) groups.unshift({ name: GUIDE_GROUP, tags: guides });
  if (webhookTag) groups.push({ name: 'Webhooks', tags: [webhookTag] });
  return groups;
}

function describeReference(openapi: Json, events: WebhookEvent[], asyncDoc: Json | undefined): string {
  const info = isObject(openapi.info) ? openapi.info : {};
  const base = typeof info.description === 'string' ? info.description.trimEnd() : '';
  const lines = [
    '**This reference.** It covers the read API (`/api/v1`, API keys), the workspace',
    'administration API (`/api/workspace/{workspace_id}`, member tokens) and the webhook events the',
    'service sends. The machine-readable contract is published at [`/openapi.json`](/openapi.json)',
  ];
  if (events.length > 0) {
    lines.push(
      `and, for the ${events.length} webhook events, [\`/asyncapi.json\`](/asyncapi.json) (AsyncAPI ${typeof asyncDoc?.asyncapi === 'string' ? asyncDoc.asyncapi : '3.0'});`,
      'both bundle the same schema files, so a field means the same in a response and in an event.',
    );
  } else {
    lines[lines.length - 1] += '.';
  }
  return `${base}\n\n${lines.join('\n')}\n`;
}

/** Starts each operation's description with what it requires (its `security`), in the docs copy. */
function noteRequirements(doc: Json): void {
  const components = isObject(doc.components) ? doc.components : {};
  const schemes = isObject(components.securitySchemes) ? components.securitySchemes : {};
  for (const item of Object.values(isObject(doc.paths) ? doc.paths : {})) {
    if (!isObject(item)) continue;
    for (const [method, op] of Object.entries(item)) {
      if (!PATH_ITEM_METHODS.has(method) || !isObject(op)) continue;
      const note = requirementNote(op.security, schemes);
      if (note) op.description = typeof op.description === 'string' ? `${note}\n\n${op.description}` : note;
    }
  }
}

/**
 * The copy of the contract the reference page renders: the bundled OpenAPI document with each
 * operation's requirement at the top of its description, the AsyncAPI events added as OpenAPI 3.1
 * `webhooks`, and sidebar groups for the two APIs and the events. The published documents are
 * never modified.
 */
export function buildReferenceDocument(openapi: Json, asyncapi?: Json): Json {
  const doc = structuredClone(openapi);
  noteRequirements(doc);
  const components = isObject(doc.components) ? doc.components : (doc.components = {});
  const schemas = isObject(components.schemas) ? components.schemas : (components.schemas = {});
  let events: WebhookEvent[] = [];
  let webhookTag: string | undefined;
  if (asyncapi) {
    const converted = webhooksFromAsyncApi(asyncapi, schemas, WEBHOOK_EVENTS_TAG);
    events = converted.events;
    if (events.length > 0) {
      webhookTag = WEBHOOK_EVENTS_TAG;
      Object.assign(schemas, converted.schemas);
      doc.webhooks = { ...(isObject(doc.webhooks) ? doc.webhooks : {}), ...converted.webhooks };
      const asyncInfo = isObject(asyncapi.info) ? asyncapi.info : {};
      const tags = Array.isArray(doc.tags) ? doc.tags : (doc.tags = []);
      (tags as Json[]).push({
        name: WEBHOOK_EVENTS_TAG,
        description: typeof asyncInfo.description === 'string'
          ? asyncInfo.description
          : 'Events the service POSTs to the webhook URLs a workspace subscribes.',
      });
    }
  }
  doc['x-tagGroups'] = tagGroups(doc, webhookTag);
  doc.info = { ...(isObject(doc.info) ? doc.info : {}), description: describeReference(openapi, events, asyncapi) };
  return doc;
}
