// Shared schema comparison for the contract change-control check.
//
// The question asked of every schema pair is "can a client written against the
// old contract still work against the new one?". That depends on which way the
// data flows, hence `direction`:
//   - 'response': the server produces, the client consumes (response bodies,
//     response headers, AsyncAPI message payloads). The new schema must not
//     produce anything the old one could not (no removed fields, no new types,
//     no removed enum/const values).
//   - 'request': the client produces, the server consumes (parameters and
//     request bodies). The new schema must still accept everything the old one
//     accepted (no new required fields, no lost types, no tightened limits).

/** @typedef {'response' | 'request'} Direction */
/**
 * @typedef {object} Change
 * @property {string} kind      machine-readable kind, e.g. 'removed-field'
 * @property {string} id        identifier a CHANGELOG entry must mention
 * @property {string} detail    human-readable explanation
 * @property {boolean} breaking
 * @property {boolean} [accepted] breaking, but accepted in a minor version (check-breaking-changes.mjs, ACCEPTED_CHANGES)
 * @property {string[]} [aliases] other identifiers that also cover the change
 *   (e.g. `UserSummary.email` for a field of a shared component schema, so one
 *   CHANGELOG line covers every operation that uses it)
 */
/** @typedef {Record<string, any>} Json */

/**
 * Follows a local `$ref` (`#/json/pointer`) chain. Bundled documents only hold
 * local refs; anything else is a bundling error worth failing loudly on.
 * Sibling keywords next to `$ref` (allowed in OpenAPI 3.1) override the target.
 * @param {Json} doc
 * @param {any} node
 * @returns {{ node: any, ref: string | undefined }} the resolved node and the last ref followed
 */
export function resolveRef(doc, node) {
  /** @type {string | undefined} */
  let ref;
  const seen = new Set();
  while (node && typeof node === 'object' && typeof node.$ref === 'string') {
    ref = node.$ref;
    if (seen.has(ref)) throw new Error(`circular $ref chain at ${ref}`);
    seen.add(ref);
    const { $ref: _ignored, ...siblings } = node;
    const target = pointer(doc, ref);
    node = Object.keys(siblings).length > 0 && target && typeof target === 'object' ? { ...target, ...siblings } : target;
  }
  return { node, ref };
}

/**
 * @param {Json} doc
 * @param {string} ref
 */
function pointer(doc, ref) {
  if (!ref.startsWith('#')) throw new Error(`only local $refs are supported in bundled documents, got ${ref}`);
  /** @type {any} */
  let cur = doc;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (cur == null || typeof cur !== 'object' || !(key in cur)) throw new Error(`unresolvable $ref ${ref}`);
    cur = cur[key];
  }
  return cur;
}

/** Name of a component schema a ref points at, for CHANGELOG aliases. */
function componentName(/** @type {string | undefined} */ ref) {
  const m = ref && /^#\/components\/schemas\/([^/]+)$/.exec(ref);
  return m ? decodeURIComponent(m[1]).replace(/~1/g, '/').replace(/~0/g, '~') : undefined;
}

/**
 * @typedef {object} CompareOptions
 * @property {Direction} direction
 * @property {Json} oldDoc   document the old schema's $refs resolve against
 * @property {Json} newDoc
 * @property {string} id     identifier prefix, e.g. `getMe 200 application/json`
 */

/**
 * Compares two schemas and returns every difference a client could notice,
 * flagged breaking or not according to `direction`.
 * @param {any} oldSchema
 * @param {any} newSchema
 * @param {CompareOptions} options
 * @returns {Change[]}
 */
export function compareSchemas(oldSchema, newSchema, options) {
  /** @type {Change[]} */
  const changes = [];
  walk(
    { ...options, changes, stack: new Set() },
    oldSchema,
    newSchema,
    { path: [], component: undefined },
  );
  return changes;
}

/**
 * @typedef {CompareOptions & { changes: Change[], stack: Set<string> }} Ctx
 * @typedef {{ path: string[], component: { name: string, path: string[] } | undefined }} Loc
 */

/** Field path such as `data.items[].id` (items are appended as `[]`). */
function fieldPath(/** @type {string[]} */ segments) {
  return segments.reduce((acc, s) => (s === '[]' ? `${acc}[]` : acc ? `${acc}.${s}` : s), '');
}

/**
 * @param {Ctx} ctx
 * @param {Loc} loc
 * @param {string} kind
 * @param {boolean} breaking
 * @param {string} detail
 */
function report(ctx, loc, kind, breaking, detail) {
  const id = [ctx.id, fieldPath(loc.path)].filter(Boolean).join(' ');
  /** @type {Change} */
  const change = { kind, id, detail, breaking };
  if (loc.component) change.aliases = [[loc.component.name, fieldPath(loc.component.path)].filter(Boolean).join('.')];
  ctx.changes.push(change);
}

/**
 * @param {Loc} loc
 * @param {string} segment
 * @returns {Loc}
 */
function child(loc, segment) {
  return {
    path: [...loc.path, segment],
    component: loc.component && { name: loc.component.name, path: [...loc.component.path, segment] },
  };
}

/**
 * @param {Ctx} ctx
 * @param {any} oldRaw
 * @param {any} newRaw
 * @param {Loc} loc
 */
function walk(ctx, oldRaw, newRaw, loc) {
  const o = resolveRef(ctx.oldDoc, oldRaw);
  const n = resolveRef(ctx.newDoc, newRaw);
  // Recursive schemas (a tree node holding children of its own type): stop
  // when this exact pair of refs is already being compared further up.
  const stackKey = o.ref && n.ref ? `${o.ref}|${n.ref}` : undefined;
  if (stackKey && ctx.stack.has(stackKey)) return;
  // Entering a named component: later changes can also be listed in the
  // CHANGELOG by `ComponentName.field` instead of once per operation.
  const name = componentName(o.ref) ?? componentName(n.ref);
  const here = name ? { path: loc.path, component: { name, path: [] } } : loc;
  if (stackKey) ctx.stack.add(stackKey);
  try {
    compareResolved(ctx, { schema: flattenAllOf(ctx.oldDoc, o.node), ref: o.ref }, { schema: flattenAllOf(ctx.newDoc, n.node), ref: n.ref }, here);
  } finally {
    if (stackKey) ctx.stack.delete(stackKey);
  }
}

/**
 * Merges `allOf` members into one schema, which is how a client sees them:
 * the union of their properties and required lists.
 * @param {Json} doc
 * @param {any} schema
 * @returns {Json}
 */
function flattenAllOf(doc, schema, depth = 0) {
  if (!schema || typeof schema !== 'object' || !Array.isArray(schema.allOf) || depth > 20) return schema ?? {};
  const { allOf, ...rest } = schema;
  /** @type {Json} */
  const merged = { ...rest, properties: { ...(rest.properties ?? {}) }, required: [...(rest.required ?? [])] };
  for (const member of allOf) {
    const m = flattenAllOf(doc, resolveRef(doc, member).node, depth + 1);
    Object.assign(merged.properties, m.properties ?? {});
    merged.required.push(...(m.required ?? []));
    for (const [k, v] of Object.entries(m)) if (!(k in merged)) merged[k] = v;
  }
  return merged;
}

/**
 * Set of JSON types a schema allows, or undefined when it allows any type.
 * OpenAPI 3.0's `nullable: true` is read as an extra 'null' member.
 * @param {Json} s
 * @returns {Set<string> | undefined}
 */
function typeSet(s) {
  if (s.type === undefined) return undefined;
  const types = new Set(Array.isArray(s.type) ? s.type : [s.type]);
  if (s.nullable === true) types.add('null');
  return types;
}

/** `a ⊆ b`, where an integer is also a number. */
function subset(/** @type {Set<string>} */ a, /** @type {Set<string>} */ b) {
  return [...a].every((t) => b.has(t) || (t === 'integer' && b.has('number')));
}

const showTypes = (/** @type {Set<string> | undefined} */ t) => (t ? [...t].join('|') : 'any');
const show = (/** @type {unknown} */ v) => JSON.stringify(v);

/**
 * @param {Ctx} ctx
 * @param {{ schema: Json, ref: string | undefined }} oldSide
 * @param {{ schema: Json, ref: string | undefined }} newSide
 * @param {Loc} loc
 */
function compareResolved(ctx, oldSide, newSide, loc) {
  const o = oldSide.schema;
  const n = newSide.schema;
  const ov = variantsOf(ctx.oldDoc, o);
  const nv = variantsOf(ctx.newDoc, n);
  // A plain schema against a bare union (`X` → `anyOf: [X, {type: null}]`):
  // the union's constraints live in its alternatives, so compare the plain
  // schema with its matching alternative instead of with the bare wrapper.
  if (!ov !== !nv && isBareUnion(ov ? o : n)) {
    compareUnions(ctx, ov ?? [plainVariant(oldSide, true)], nv ?? [plainVariant(newSide, true)], loc);
    return;
  }

  const response = ctx.direction === 'response';
  compareTypes(ctx, o, n, loc);
  compareValues(ctx, o, n, loc);

  // Format: a changed format breaks parsing either way. Adding one to a request
  // rejects values that used to pass; dropping one from a response removes a
  // guarantee clients parse on (e.g. date-time).
  if (o.format !== n.format) {
    const breaking =
      (o.format !== undefined && n.format !== undefined) ||
      (response ? n.format === undefined : o.format === undefined);
    report(ctx, loc, 'changed-format', breaking, `format ${o.format ?? '(none)'} → ${n.format ?? '(none)'}`);
  }

  compareLimits(ctx, o, n, loc);
  compareProperties(ctx, o, n, loc);

  if (isSchema(o.items) || isSchema(n.items)) walk(ctx, o.items ?? {}, n.items ?? {}, child(loc, '[]'));
  if (isSchema(o.additionalProperties) && isSchema(n.additionalProperties)) {
    walk(ctx, o.additionalProperties, n.additionalProperties, child(loc, '*'));
  }
  // Both sides were compared as a whole above; a side without alternatives
  // only needs to be matched (not walked again) against the other's.
  if (ov || nv) compareUnions(ctx, ov ?? [plainVariant(oldSide, false)], nv ?? [plainVariant(newSide, false)], loc);
}

const isSchema = (/** @type {unknown} */ v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * @param {Ctx} ctx
 * @param {Json} o
 * @param {Json} n
 * @param {Loc} loc
 */
function compareTypes(ctx, o, n, loc) {
  const ot = typeSet(o);
  const nt = typeSet(n);
  if (showTypes(ot) === showTypes(nt)) return;
  const detail = `type ${showTypes(ot)} → ${showTypes(nt)}`;
  if (ctx.direction === 'response') {
    // Clients only cope with the types they already handle: the new set must
    // be a subset of the old one (string → string|null is breaking: null is new).
    const ok = ot === undefined || (nt !== undefined && subset(nt, ot));
    const becameNullable = ot !== undefined && !ot.has('null') && nt?.has('null');
    report(ctx, loc, becameNullable ? 'became-nullable' : 'changed-type', !ok, detail);
  } else {
    // The server must still accept every type clients already send.
    const ok = nt === undefined || (ot !== undefined && subset(ot, nt));
    report(ctx, loc, ok ? 'changed-type' : 'narrowed-type', !ok, detail);
  }
}

/**
 * enum and const are both "the set of allowed values".
 * @param {Json} s
 * @returns {unknown[] | undefined}
 */
function valueSet(s) {
  if ('const' in s) return [s.const];
  return Array.isArray(s.enum) ? s.enum : undefined;
}

/**
 * @param {Ctx} ctx
 * @param {Json} o
 * @param {Json} n
 * @param {Loc} loc
 */
function compareValues(ctx, o, n, loc) {
  const ov = valueSet(o);
  const nv = valueSet(n);
  const response = ctx.direction === 'response';
  if (ov && nv) {
    const oKeys = new Set(ov.map(show));
    const nKeys = new Set(nv.map(show));
    const removed = ov.filter((v) => !nKeys.has(show(v)));
    const added = nv.filter((v) => !oKeys.has(show(v)));
    if ('const' in o && 'const' in n && removed.length > 0) {
      // Our envelopes pin `code` with const: a new code means clients that
      // switch on it no longer recognise the response.
      const what = loc.path.at(-1) === 'code' ? 'code value' : 'const value';
      report(ctx, loc, 'changed-const', true, `changed ${what} ${show(o.const)} → ${show(n.const)}`);
      return;
    }
    // Removed values break both ways: requests using them are rejected, and
    // (by this project's policy) response consumers may depend on them.
    for (const v of removed) report(ctx, loc, 'removed-enum-value', true, `value ${show(v)} removed`);
    // Added values: a request accepts more; a response may emit a value the
    // client does not know, which this check deliberately treats as additive.
    for (const v of added) report(ctx, loc, 'added-enum-value', false, `value ${show(v)} added`);
  } else if (ov && !nv) {
    report(ctx, loc, 'removed-enum-restriction', false, `no longer restricted to ${ov.map(show).join(', ')}`);
  } else if (!ov && nv) {
    // A request that accepted any value now accepts only these; a response
    // just became more predictable.
    report(ctx, loc, 'added-enum-restriction', !response, `now restricted to ${nv.map(show).join(', ')}`);
  }
}

/** Limits where a smaller new value is tighter ('max') or a larger one is ('min'). */
const LIMITS = /** @type {const} */ ([
  ['maxLength', 'max'], ['minLength', 'min'],
  ['maximum', 'max'], ['minimum', 'min'],
  ['exclusiveMaximum', 'max'], ['exclusiveMinimum', 'min'],
  ['maxItems', 'max'], ['minItems', 'min'],
  ['maxProperties', 'max'], ['minProperties', 'min'],
]);

/**
 * Tightened validation only hurts requests (clients' values get rejected).
 * Response-side limit changes are reported but never breaking.
 * @param {Ctx} ctx
 * @param {Json} o
 * @param {Json} n
 * @param {Loc} loc
 */
function compareLimits(ctx, o, n, loc) {
  const request = ctx.direction === 'request';
  for (const [key, side] of LIMITS) {
    const ov = typeof o[key] === 'number' ? o[key] : undefined;
    const nv = typeof n[key] === 'number' ? n[key] : undefined;
    if (ov === nv) continue;
    const tightened = nv !== undefined && (ov === undefined || (side === 'max' ? nv < ov : nv > ov));
    report(ctx, loc, tightened ? 'tightened-constraint' : 'loosened-constraint', request && tightened, `${key} ${ov ?? '(none)'} → ${nv ?? '(none)'}`);
  }
  for (const key of ['pattern', 'multipleOf']) {
    if (o[key] === n[key]) continue;
    // Any new or different pattern/multipleOf may reject values that passed.
    const breaking = request && n[key] !== undefined;
    report(ctx, loc, 'changed-constraint', breaking, `${key} ${show(o[key]) ?? '(none)'} → ${show(n[key]) ?? '(none)'}`);
  }
}

/**
 * @param {Ctx} ctx
 * @param {Json} o
 * @param {Json} n
 * @param {Loc} loc
 */
function compareProperties(ctx, o, n, loc) {
  const op = isSchema(o.properties) ? o.properties : {};
  const np = isSchema(n.properties) ? n.properties : {};
  const oReq = new Set(Array.isArray(o.required) ? o.required : []);
  const nReq = new Set(Array.isArray(n.required) ? n.required : []);
  const names = new Set([...Object.keys(op), ...Object.keys(np), ...oReq, ...nReq]);
  const response = ctx.direction === 'response';

  for (const name of names) {
    const here = child(loc, name);
    const inOld = name in op || oReq.has(name);
    const inNew = name in np || nReq.has(name);
    if (response) {
      if (inOld && !inNew) report(ctx, here, 'removed-field', true, 'field removed from the response');
      else if (!inOld && inNew) report(ctx, here, 'added-field', false, 'field added to the response');
      else if (oReq.has(name) && !nReq.has(name)) {
        // Clients may read it unconditionally: "sometimes absent" is a removal.
        report(ctx, here, 'field-became-optional', true, 'field was always present, now optional');
      } else if (!oReq.has(name) && nReq.has(name)) {
        report(ctx, here, 'field-became-required', false, 'field now always present');
      }
    } else if (!inOld && inNew) {
      if (nReq.has(name)) report(ctx, here, 'new-required-field', true, 'new required field in the request');
      else report(ctx, here, 'added-optional-field', false, 'new optional field in the request');
    } else if (inOld && !inNew) {
      // Only breaking when the server now rejects unknown fields.
      const closed = n.additionalProperties === false;
      report(ctx, here, 'removed-request-field', closed, closed ? 'field removed and unknown fields are rejected' : 'field removed (ignored if sent)');
    } else if (!oReq.has(name) && nReq.has(name)) {
      report(ctx, here, 'new-required-field', true, 'optional request field became required');
    } else if (oReq.has(name) && !nReq.has(name)) {
      report(ctx, here, 'field-became-optional', false, 'request field no longer required');
    }
    // A name only listed in `required` is a field of any type.
    if (inOld && inNew) walk(ctx, op[name] ?? {}, np[name] ?? {}, here);
  }
}

/**
 * @param {Json} doc
 * @param {Json} s
 * @returns {Variant[] | undefined}
 */
function variantsOf(doc, s) {
  const list = s.oneOf ?? s.anyOf;
  return Array.isArray(list) ? list.map((v) => describe(doc, v)) : undefined;
}

/** A union with no constraints of its own besides its alternatives. */
const isBareUnion = (/** @type {Json} */ s) => s.type === undefined && !isSchema(s.properties) && !isSchema(s.items);

/**
 * The side without oneOf/anyOf, seen as a union of one.
 * @param {{ schema: Json, ref: string | undefined }} side
 * @param {boolean} walkIt whether matching it should still compare its body
 * @returns {Variant}
 */
function plainVariant(side, walkIt) {
  return { raw: walkIt ? side.schema : null, ref: side.ref, types: typeSet(side.schema), title: side.schema.title, plain: true };
}

/**
 * oneOf/anyOf are compared as a union of shapes, the same way as type sets:
 * a response must not gain a shape (it is new to the client) and a request
 * must not lose one (clients still send it).
 * @param {Ctx} ctx
 * @param {Variant[]} ov
 * @param {Variant[]} nv
 * @param {Loc} loc
 */
function compareUnions(ctx, ov, nv, loc) {
  const pairs = matchVariants(ov, nv);
  const matchedOld = new Set(pairs.map(([i]) => i));
  const matchedNew = new Set(pairs.map(([, j]) => j));
  const response = ctx.direction === 'response';

  nv.forEach((v, j) => {
    if (matchedNew.has(j)) return;
    const isNull = v.types?.size === 1 && v.types.has('null');
    report(ctx, loc, isNull ? 'became-nullable' : 'added-variant', response, isNull ? 'may now be null' : `new alternative ${label(v, j)}`);
  });
  ov.forEach((v, i) => {
    if (matchedOld.has(i)) return;
    report(ctx, loc, 'removed-variant', !response, `alternative ${label(v, i)} removed`);
  });
  for (const [i, j] of pairs) {
    const a = ov[i];
    const b = nv[j];
    if (!a || !b || a.raw === null || b.raw === null) continue;
    // Anonymous alternatives get an index segment so ids stay distinct; named
    // ones ($ref) are identified by their component alias instead.
    const anonymous = !a.ref && !b.ref && !a.plain && !b.plain;
    walk(ctx, a.raw, b.raw, anonymous ? child(loc, `oneOf[${i}]`) : loc);
  }
}

/**
 * @typedef {{ raw: any, ref: string | undefined, types: Set<string> | undefined, title: string | undefined, plain?: boolean }} Variant
 */

/**
 * @param {Json} doc
 * @param {any} raw
 * @returns {Variant}
 */
function describe(doc, raw) {
  const { node, ref } = resolveRef(doc, raw);
  const s = isSchema(node) ? node : {};
  return { raw, ref, types: typeSet(s), title: s.title };
}

const label = (/** @type {Variant} */ v, /** @type {number} */ i) =>
  v.ref ? v.ref.split('/').pop() : v.title ?? (v.types ? `#${i} (${showTypes(v.types)})` : `#${i}`);

/**
 * Pairs old and new variants: same $ref target first, then same title, then
 * same type set, in order. Unpaired ones are additions/removals.
 * @param {Variant[]} ov
 * @param {Variant[]} nv
 * @returns {Array<[number, number]>}
 */
function matchVariants(ov, nv) {
  /** @type {Array<[number, number]>} */
  const pairs = [];
  const usedOld = new Set();
  const usedNew = new Set();
  /** @type {Array<(a: Variant, b: Variant) => boolean>} */
  const rules = [
    (a, b) => a.ref !== undefined && a.ref === b.ref,
    (a, b) => a.title !== undefined && a.title === b.title,
    (a, b) => (a.plain || b.plain || (a.ref === undefined && b.ref === undefined)) && showTypes(a.types) === showTypes(b.types),
    // The plain side stands for "the schema itself": failing the above it
    // still matches any non-null alternative (an inline copy of it, say).
    (a, b) => (a.plain === true || b.plain === true) && showTypes(a.types) !== 'null' && showTypes(b.types) !== 'null',
  ];
  for (const rule of rules) {
    ov.forEach((a, i) => {
      if (usedOld.has(i)) return;
      const j = nv.findIndex((b, k) => !usedNew.has(k) && rule(a, b));
      if (j >= 0) {
        pairs.push([i, j]);
        usedOld.add(i);
        usedNew.add(j);
      }
    });
  }
  return pairs;
}
