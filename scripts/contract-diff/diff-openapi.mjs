// Differences between two bundled OpenAPI 3.1 documents, as seen by a client.
// Operations are matched by method + path (what a client calls), with path
// parameter names ignored (`/items/{id}` is the same URL as `/items/{itemId}`).

import { compareSchemas, resolveRef } from './schema-compat.mjs';

/** @typedef {import('./schema-compat.mjs').Change} Change */
/** @typedef {Record<string, any>} Json */

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * @typedef {object} Operation
 * @property {string} path       path as written
 * @property {string} route      path with parameter names erased, for matching
 * @property {string} method     upper case
 * @property {string | undefined} operationId
 * @property {Json} op
 * @property {Json} pathItem
 */

/**
 * @param {Json} doc
 * @returns {Operation[]}
 */
function operations(doc) {
  /** @type {Operation[]} */
  const out = [];
  for (const [path, rawItem] of Object.entries(doc.paths ?? {})) {
    const pathItem = resolveRef(doc, rawItem).node ?? {};
    for (const method of METHODS) {
      const op = pathItem[method];
      if (!op) continue;
      out.push({ path, route: route(path), method: method.toUpperCase(), operationId: op.operationId, op, pathItem });
    }
  }
  return out;
}

const route = (/** @type {string} */ path) => path.replace(/\{[^}]*\}/g, '{}');
const endpoint = (/** @type {Operation} */ o) => `${o.method} ${o.path}`;
/** Identifier prefix of everything inside an operation. */
const opName = (/** @type {Operation} */ o) => o.operationId ?? endpoint(o);

/**
 * Every client-visible difference between two OpenAPI documents.
 * @param {Json} oldDoc
 * @param {Json} newDoc
 * @returns {Change[]}
 */
export function diffOpenApi(oldDoc, newDoc) {
  /** @type {Change[]} */
  const changes = [];
  const add = (/** @type {string} */ kind, /** @type {string} */ id, /** @type {boolean} */ breaking, /** @type {string} */ detail) =>
    changes.push({ kind, id, detail, breaking });

  const oldOps = operations(oldDoc);
  const newOps = operations(newDoc);
  const newByEndpoint = new Map(newOps.map((o) => [`${o.method} ${o.route}`, o]));
  const oldByEndpoint = new Map(oldOps.map((o) => [`${o.method} ${o.route}`, o]));
  const newOpIds = new Map(newOps.filter((o) => o.operationId).map((o) => [o.operationId, o]));
  const oldRoutes = new Set(Object.keys(oldDoc.paths ?? {}).map(route));
  const newRoutes = new Set(Object.keys(newDoc.paths ?? {}).map(route));

  // A whole path gone is reported once, not once per operation under it.
  for (const path of Object.keys(oldDoc.paths ?? {})) {
    if (newRoutes.has(route(path))) continue;
    const ids = oldOps.filter((o) => o.path === path).map(opName);
    add('removed-path', path, true, `path removed (operations: ${ids.join(', ') || 'none'})`);
  }
  for (const path of Object.keys(newDoc.paths ?? {})) {
    if (!oldRoutes.has(route(path))) add('added-path', path, false, 'new path');
  }

  for (const o of oldOps) {
    if (!newRoutes.has(o.route)) continue;
    const n = newByEndpoint.get(`${o.method} ${o.route}`);
    if (!n) {
      const moved = o.operationId ? newOpIds.get(o.operationId) : undefined;
      if (moved) {
        add('removed-path-method', endpoint(o), true, `${o.operationId} moved to ${endpoint(moved)}`);
      } else {
        add('removed-operation', opName(o), true, `operation ${endpoint(o)} removed`);
      }
      continue;
    }
    if (o.operationId && n.operationId !== o.operationId) {
      // Generated clients name their methods after operationIds.
      add('renamed-operation-id', o.operationId, true, `operationId of ${endpoint(o)} renamed to ${n.operationId ?? '(none)'}`);
    }
    if (o.path !== n.path) add('renamed-path-parameter', endpoint(o), false, `path written ${n.path} (same URL)`);
    changes.push(...diffOperation(oldDoc, newDoc, o, n));
  }
  for (const n of newOps) {
    if (!oldByEndpoint.has(`${n.method} ${n.route}`)) add('added-operation', opName(n), false, `new operation ${endpoint(n)}`);
  }
  return dedupe(changes);
}

/**
 * Parameters of an operation keyed by location and name (operation-level
 * ones override path-level ones, as in OpenAPI). Path parameters are keyed by
 * position, so renaming one in the template is not a removal + addition.
 * @param {Json} doc
 * @param {Operation} o
 * @returns {Map<string, Json>}
 */
function parameters(doc, o) {
  const templateNames = [...o.path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
  /** @type {Map<string, Json>} */
  const out = new Map();
  for (const raw of [...(o.pathItem.parameters ?? []), ...(o.op.parameters ?? [])]) {
    const p = resolveRef(doc, raw).node;
    if (!p || !p.in || !p.name) continue;
    let key = `${p.in} ${p.in === 'header' ? p.name.toLowerCase() : p.name}`;
    if (p.in === 'path') {
      const index = templateNames.indexOf(p.name);
      if (index >= 0) key = `path #${index}`;
    }
    out.set(key, p);
  }
  return out;
}

/** The schema of one item of a media type whose body is a sequence (NDJSON), if it names one. */
const itemSchemaOf = (media) => media.itemSchema ?? media['x-item-schema'];

/** Schema of a parameter, media type objects included (`content`). */
function parameterSchema(/** @type {Json} */ p) {
  if (p.schema) return p.schema;
  const first = Object.values(p.content ?? {})[0];
  return first?.schema ?? {};
}

/**
 * @param {Json} oldDoc
 * @param {Json} newDoc
 * @param {Operation} o
 * @param {Operation} n
 * @returns {Change[]}
 */
function diffOperation(oldDoc, newDoc, o, n) {
  /** @type {Change[]} */
  const changes = [];
  const name = opName(o);
  const add = (/** @type {string} */ kind, /** @type {string} */ id, /** @type {boolean} */ breaking, /** @type {string} */ detail) =>
    changes.push({ kind, id, detail, breaking });
  const request = { oldDoc, newDoc, direction: /** @type {const} */ ('request') };
  const response = { oldDoc, newDoc, direction: /** @type {const} */ ('response') };

  // --- parameters (client → server) ---
  const op = parameters(oldDoc, o);
  const np = parameters(newDoc, n);
  for (const [key, p] of np) {
    const id = `${name} ${p.in} ${p.name}`;
    const before = op.get(key);
    if (!before) {
      if (p.required) add('new-required-parameter', id, true, `new required ${p.in} parameter`);
      else add('added-optional-parameter', id, false, `new optional ${p.in} parameter`);
      continue;
    }
    if (p.required && !before.required) add('parameter-became-required', id, true, `${p.in} parameter became required`);
    if (!p.required && before.required) add('parameter-became-optional', id, false, `${p.in} parameter no longer required`);
    changes.push(...compareSchemas(parameterSchema(before), parameterSchema(p), { ...request, id }));
  }
  for (const [key, p] of op) {
    if (np.has(key)) continue;
    // The request validator rejects unknown query parameters, so clients
    // still sending a removed one get a 400; unknown headers are ignored.
    const breaking = p.in === 'query';
    add('removed-parameter', `${name} ${p.in} ${p.name}`, breaking, `${p.in} parameter removed${breaking ? ' (requests still sending it are rejected)' : ''}`);
  }

  // --- request body (client → server) ---
  const ob = resolveRef(oldDoc, o.op.requestBody).node;
  const nb = resolveRef(newDoc, n.op.requestBody).node;
  if (!ob && nb) {
    add(nb.required ? 'new-required-request-body' : 'added-request-body', `${name} request`, Boolean(nb.required), 'request body added');
  } else if (ob && !nb) {
    add('removed-request-body', `${name} request`, false, 'request body no longer documented');
  } else if (ob && nb) {
    if (nb.required && !ob.required) add('request-body-became-required', `${name} request`, true, 'request body became required');
    for (const [mt, media] of Object.entries(ob.content ?? {})) {
      const id = `${name} request ${mt}`;
      const after = nb.content?.[mt];
      if (!after) {
        add('removed-request-media-type', id, true, `request media type ${mt} no longer accepted`);
        continue;
      }
      changes.push(...compareSchemas(media.schema ?? {}, after.schema ?? {}, { ...request, id }));
    }
    for (const mt of Object.keys(nb.content ?? {})) {
      if (!ob.content?.[mt]) add('added-request-media-type', `${name} request ${mt}`, false, `request media type ${mt} accepted`);
    }
  }

  // --- responses (server → client) ---
  const oResponses = o.op.responses ?? {};
  const nResponses = n.op.responses ?? {};
  for (const [status, rawOld] of Object.entries(oResponses)) {
    const id = `${name} ${status}`;
    if (!(status in nResponses)) {
      // Clients never see an error that is no longer sent, but they do rely
      // on the success statuses they were promised.
      const success = status.startsWith('2');
      add('removed-response-status', id, success, `response ${status} removed`);
      continue;
    }
    const or = resolveRef(oldDoc, rawOld).node ?? {};
    const nr = resolveRef(newDoc, nResponses[status]).node ?? {};

    for (const [mt, media] of Object.entries(or.content ?? {})) {
      const mid = `${id} ${mt}`;
      const after = nr.content?.[mt];
      if (!after) {
        add('removed-response-media-type', mid, true, `response media type ${mt} removed`);
        continue;
      }
      // A body that is a sequence (NDJSON) is held to the schema of one line: OpenAPI 3.2's
      // `itemSchema`, `x-item-schema` in 3.1, or the `schema` of a document that described one line
      // there. Moving a line's schema from `schema` to an item schema changes how the body is
      // typed (a string of lines, not one object), which breaks a generated client once.
      const [oldItem, newItem] = [media, after].map(itemSchemaOf);
      if ((oldItem === undefined) !== (newItem === undefined)) {
        add('changed-sequence-schema', mid, true, oldItem === undefined
          ? 'the body is described as a sequence of lines (x-item-schema), no longer as one line'
          : 'the body is described as one line, no longer as a sequence of lines');
      }
      changes.push(...compareSchemas(oldItem ?? media.schema ?? {}, newItem ?? after.schema ?? {}, { ...response, id: mid }));
    }
    for (const mt of Object.keys(nr.content ?? {})) {
      if (!or.content?.[mt]) add('added-response-media-type', `${id} ${mt}`, false, `response media type ${mt} added`);
    }

    const oh = headers(oldDoc, or);
    const nh = headers(newDoc, nr);
    for (const [key, h] of oh) {
      const hid = `${id} header ${h.name}`;
      const after = nh.get(key);
      if (!after) add('removed-response-header', hid, true, 'response header removed');
      else changes.push(...compareSchemas(h.header.schema ?? {}, after.header.schema ?? {}, { ...response, id: hid }));
    }
    for (const [key, h] of nh) {
      if (!oh.has(key)) add('added-response-header', `${id} header ${h.name}`, false, 'response header added');
    }
  }
  for (const status of Object.keys(nResponses)) {
    if (!(status in oResponses)) add('added-response-status', `${name} ${status}`, false, `response ${status} added`);
  }
  return changes;
}

/**
 * Response headers keyed by lower-cased name (HTTP header names are case-insensitive).
 * @param {Json} doc
 * @param {Json} res
 * @returns {Map<string, { name: string, header: Json }>}
 */
function headers(doc, res) {
  const out = new Map();
  for (const [name, raw] of Object.entries(res.headers ?? {})) {
    out.set(name.toLowerCase(), { name, header: resolveRef(doc, raw).node ?? {} });
  }
  return out;
}

/**
 * A shared component compared through several paths can yield the very same
 * change twice (e.g. two alternatives with one field); keep one of each.
 * @param {Change[]} changes
 */
export function dedupe(changes) {
  const seen = new Set();
  return changes.filter((c) => {
    const key = `${c.kind}\u0000${c.id}\u0000${c.detail}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
