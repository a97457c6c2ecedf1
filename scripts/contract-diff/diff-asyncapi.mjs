// Differences between two bundled AsyncAPI 3.0 documents, as seen by a client.
// Every message is something the client receives (our webhooks), so payloads
// and headers are compared in the 'response' direction.

import { compareSchemas, resolveRef } from './schema-compat.mjs';
import { dedupe } from './diff-openapi.mjs';

/** @typedef {import('./schema-compat.mjs').Change} Change */
/** @typedef {Record<string, any>} Json */

/**
 * A payload is either a schema or, in AsyncAPI 3, a multi-format wrapper
 * `{ schemaFormat, schema }`.
 * @param {Json} doc
 * @param {any} payload
 */
function payloadSchema(doc, payload) {
  const p = resolveRef(doc, payload).node;
  if (p && typeof p === 'object' && 'schemaFormat' in p && 'schema' in p) return p.schema;
  return payload ?? {};
}

/**
 * Key of a `$ref` into channels/messages, for comparing operation references.
 * @param {any} raw
 */
const refKey = (raw) => (raw && typeof raw.$ref === 'string' ? raw.$ref : JSON.stringify(raw));

/**
 * Every client-visible difference between two AsyncAPI documents.
 * @param {Json} oldDoc
 * @param {Json} newDoc
 * @returns {Change[]}
 */
export function diffAsyncApi(oldDoc, newDoc) {
  /** @type {Change[]} */
  const changes = [];
  const add = (/** @type {string} */ kind, /** @type {string} */ id, /** @type {boolean} */ breaking, /** @type {string} */ detail) =>
    changes.push({ kind, id, detail, breaking });

  const oChannels = oldDoc.channels ?? {};
  const nChannels = newDoc.channels ?? {};
  for (const [key, raw] of Object.entries(oChannels)) {
    if (!(key in nChannels)) {
      add('removed-channel', key, true, 'channel removed');
      continue;
    }
    const oc = resolveRef(oldDoc, raw).node ?? {};
    const nc = resolveRef(newDoc, nChannels[key]).node ?? {};
    if ((oc.address ?? null) !== (nc.address ?? null)) {
      add('changed-channel-address', key, true, `address ${oc.address ?? '(none)'} → ${nc.address ?? '(none)'}`);
    }
    const om = oc.messages ?? {};
    const nm = nc.messages ?? {};
    for (const [mKey, mRaw] of Object.entries(om)) {
      const id = `${key} ${mKey}`;
      if (!(mKey in nm)) {
        add('removed-message', id, true, 'message removed from channel');
        continue;
      }
      changes.push(...diffMessage(oldDoc, newDoc, mRaw, nm[mKey], id));
    }
    for (const mKey of Object.keys(nm)) {
      if (!(mKey in om)) add('added-message', `${key} ${mKey}`, false, 'new message (event) on channel');
    }
  }
  for (const key of Object.keys(nChannels)) {
    if (!(key in oChannels)) add('added-channel', key, false, 'new channel');
  }

  const oOps = oldDoc.operations ?? {};
  const nOps = newDoc.operations ?? {};
  for (const [key, raw] of Object.entries(oOps)) {
    if (!(key in nOps)) {
      add('removed-operation', key, true, 'operation removed');
      continue;
    }
    const o = resolveRef(oldDoc, raw).node ?? {};
    const n = resolveRef(newDoc, nOps[key]).node ?? {};
    if (o.action !== n.action) add('changed-operation-action', key, true, `action ${o.action} → ${n.action}`);
    if (refKey(o.channel) !== refKey(n.channel)) {
      add('changed-operation-channel', key, true, `channel ${refKey(o.channel)} → ${refKey(n.channel)}`);
    }
    // No `messages` list means "every message of the channel"; only compare
    // explicit lists, message removals from channels are caught above.
    if (Array.isArray(o.messages) && Array.isArray(n.messages)) {
      const before = new Set(o.messages.map(refKey));
      const after = new Set(n.messages.map(refKey));
      for (const m of before) if (!after.has(m)) add('removed-operation-message', `${key} ${m}`, true, 'message no longer sent by operation');
      for (const m of after) if (!before.has(m)) add('added-operation-message', `${key} ${m}`, false, 'message now sent by operation');
    }
  }
  for (const key of Object.keys(nOps)) {
    if (!(key in oOps)) add('added-operation', key, false, 'new operation');
  }
  return dedupe(changes);
}

/**
 * @param {Json} oldDoc
 * @param {Json} newDoc
 * @param {any} oldRaw
 * @param {any} newRaw
 * @param {string} id
 * @returns {Change[]}
 */
function diffMessage(oldDoc, newDoc, oldRaw, newRaw, id) {
  /** @type {Change[]} */
  const changes = [];
  const o = resolveRef(oldDoc, oldRaw).node ?? {};
  const n = resolveRef(newDoc, newRaw).node ?? {};
  const options = { oldDoc, newDoc, direction: /** @type {const} */ ('response') };
  const oType = o.contentType ?? oldDoc.defaultContentType;
  const nType = n.contentType ?? newDoc.defaultContentType;
  if (oType !== nType) {
    changes.push({ kind: 'changed-content-type', id, breaking: true, detail: `content type ${oType ?? '(none)'} → ${nType ?? '(none)'}` });
  }
  changes.push(...compareSchemas(payloadSchema(oldDoc, o.payload), payloadSchema(newDoc, n.payload), { ...options, id: `${id} payload` }));
  if (o.headers || n.headers) {
    changes.push(...compareSchemas(payloadSchema(oldDoc, o.headers), payloadSchema(newDoc, n.headers), { ...options, id: `${id} headers` }));
  }
  return changes;
}
