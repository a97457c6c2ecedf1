// The value each operation's query parameters and JSON body properties take when a request leaves
// them out, as types: generated/operation-defaults.d.ts. Handler types make those parameters present (src/operations/
// handler-types.ts) and the service fills them in from the same `default:`s of the contract
// (packages/contract/src/contract-operations.ts), so no handler writes a default of its own.
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The node a local `$ref` names, followed to the end. */
function resolved(doc, node) {
  let current = node;
  for (let hops = 0; hops < 20 && typeof current?.$ref === 'string'; hops += 1) {
    current = current.$ref.slice(2).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~')).reduce((n, key) => n?.[key], doc);
  }
  return current;
}

/** A parameter schema's `default`: beside its `$ref` (a default for this parameter only) or in the schema it names. */
export function parameterDefault(doc, schema) {
  return schema?.default !== undefined ? schema.default : resolved(doc, schema)?.default;
}

/** The defaulted properties of an operation's JSON request body, as `[name, value]` (references followed). */
function bodyDefaults(doc, requestBody) {
  const schema = resolved(doc, resolved(doc, requestBody)?.content?.['application/json']?.schema);
  return Object.entries(schema?.properties ?? {}).flatMap(([name, property]) => {
    const value = parameterDefault(doc, property);
    return value === undefined ? [] : [[name, value]];
  });
}

const typeLine = (operationId, defaults) => `    ${operationId}: { ${defaults.map(([name, value]) => `${name}: ${JSON.stringify(value).replaceAll('"', "'")}`).join('; ')} };`;

/**
 * `{ listPrompts: { range: '30d'; alpha: 0.05; limit: 25 }, ... }` for the query, and the same for
 * the body's properties (`rotateWebhookSecret: { grace_period_seconds: 86400 }`), in document
 * order; operations without one left out.
 */
export function operationDefaultsSource(doc, banner) {
  const query = [];
  const body = [];
  for (const [, item] of Object.entries(doc.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op) continue;
      const defaults = [...(item.parameters ?? []), ...(op.parameters ?? [])]
        .map((p) => resolved(doc, p))
        .filter((p) => p.in === 'query')
        .flatMap((p) => {
          const value = parameterDefault(doc, p.schema);
          return value === undefined ? [] : [[p.name, value]];
        });
      if (defaults.length > 0) query.push(typeLine(op.operationId, defaults));
      const properties = bodyDefaults(doc, op.requestBody);
      if (properties.length > 0) body.push(typeLine(op.operationId, properties));
    }
  }
  return `${banner}/** The query parameters each operation defaults (their schema's \`default\`), with the value they take when left out. */
export interface OperationDefaults {
${query.join('\n')}
}

/**
 * The properties of its JSON request body each operation defaults (their schema's \`default\`), with
 * the value they take when left out, or when the body is.
 */
export interface OperationBodyDefaults {
${body.join('\n')}
}
`;
}
