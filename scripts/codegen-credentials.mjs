// The credentials each operation accepts, as a type: generated/operation-credentials.d.ts.
// Handler types split the administration API from the read API with it (src/operations/handler-types.ts),
// so that split comes from each operation's `security` in the contract, never from a list in src/.
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** `{ getMe: 'api_key', listWebhookEvents: 'api_key' | 'member_token', ... }` in document order. */
export function operationCredentialsSource(doc, banner) {
  const schemes = doc.components?.securitySchemes ?? {};
  const lines = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op) continue;
      const credentials = new Set((op.security ?? []).flatMap((requirement) => Object.keys(requirement).map((name) => {
        const credential = schemes[name]?.['x-credential'];
        if (typeof credential !== 'string') throw new Error(`${method.toUpperCase()} ${path}: scheme ${name} has no x-credential`);
        return credential;
      })));
      if (credentials.size === 0) throw new Error(`${method.toUpperCase()} ${path}: no security requirement`);
      lines.push(`    ${op.operationId}: ${[...credentials].sort().map((c) => `'${c}'`).join(' | ')};`);
    }
  }
  return `${banner}/** The credentials each operation accepts (its \`security\` and each scheme's \`x-credential\`). */
export interface OperationCredentials {
${lines.join('\n')}
}
`;
}
