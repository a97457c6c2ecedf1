// The value each operation's query parameters take when a request leaves them out, as a type:
// generated/operation-defaults.d.ts. Handler types make those parameters present (src/operations/
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

/** `{ listPrompts: { range: '30d'; alpha: 0.05; limit: 25 }, ... }` in document order; operations without one left out. */
export function operationDefaultsSource(doc, banner) {
  const lines = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op) continue;
      const defaults = [...(item.parameters ?? []), ...(op.parameters ?? [])]
        .map((p) => resolved(doc, p))
        .filter((p) => p.in === 'query')
        .flatMap((p) => {
          const value = parameterDefault(doc, p.schema);
          return value === undefined ? [] : [`${p.name}: ${JSON.stringify(value).replaceAll('"', "'")}`];
        });
      if (defaults.length > 0) lines.push(`    ${op.operationId}: { ${defaults.join('; ')} };`);
    }
  }
  return `${banner}/** The query parameters each operation defaults (their schema's \`default\`), with the value they take when left out. */
export interface OperationDefaults {
${lines.join('\n')}
}
`;
}
