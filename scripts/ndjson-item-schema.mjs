// An NDJSON download is a sequence of JSON texts, which OpenAPI 3.1 cannot type: its media type's
// `schema` is a string (`contentMediaType: application/x-ndjson`), whose `contentSchema` names the
// schema of one line, and the media type says the same in `x-item-schema` (OpenAPI 3.2's
// `itemSchema`, which 3.1 validators refuse). Redocly's bundle resolves a `$ref` inside an
// extension by copying the schema in; this puts the reference back, so the document publishes the
// line's schema once, under components, and says which it is.

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

function followed(doc, node) {
  let current = node;
  for (let depth = 0; isObject(current) && typeof current.$ref === 'string' && depth < 20; depth++) {
    current = current.$ref.slice(2).split('/').reduce((at, key) => (isObject(at) ? at[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), doc);
  }
  return current;
}

/**
 * Replaces each media type's inlined `x-item-schema` by the `$ref` its schema's `contentSchema`
 * holds, after checking that both say the same; throws where they differ or one is missing.
 */
export function referenceItemSchemas(doc) {
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item)) {
      for (const [status, rawResponse] of Object.entries(op?.responses ?? {})) {
        for (const [type, media] of Object.entries(followed(doc, rawResponse)?.content ?? {})) {
          if (media['x-item-schema'] === undefined) continue;
          const where = `${method.toUpperCase()} ${path} ${status} ${type}`;
          const line = followed(doc, media.schema)?.contentSchema;
          if (!isObject(line) || typeof line.$ref !== 'string') throw new Error(`${where}: x-item-schema without a schema whose contentSchema names the line's schema`);
          if (JSON.stringify(followed(doc, media['x-item-schema'])) !== JSON.stringify(followed(doc, line))) {
            throw new Error(`${where}: x-item-schema and the schema's contentSchema (${line.$ref}) differ`);
          }
          media['x-item-schema'] = { $ref: line.$ref };
        }
      }
    }
  }
  return doc;
}
