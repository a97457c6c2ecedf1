type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const code = (value: string) => `\`${value}\``;

/**
 * What an operation requires, in one sentence read from its `security` (openapi/README.md,
 * "Permissions"): `**Requires** an API key with \`visibility:read\`.` Redoc folds the scopes of
 * "Authorizations" away behind a click; this puts them first in the operation's description.
 * Undefined when the operation declares no requirement with a known credential.
 */
export function requirementNote(security: unknown, schemes: Json): string | undefined {
  if (!Array.isArray(security)) return undefined;
  const phrases = new Set<string>();
  for (const requirement of security) {
    if (!isObject(requirement)) continue;
    for (const [name, list] of Object.entries(requirement)) {
      const scheme = Object.hasOwn(schemes, name) ? schemes[name] : undefined;
      const credential = isObject(scheme) ? scheme['x-credential'] : undefined;
      const values = Array.isArray(list) ? list.map(String) : [];
      if (credential === 'member_token') {
        phrases.add(values.length > 0 ? `a member token of a workspace ${values.join(' or ')}` : 'a member token of any member');
      } else if (credential === 'api_key') {
        phrases.add(values.length > 0 ? `an API key with ${values.map(code).join(' and ')}` : 'any API key of the workspace');
      }
    }
  }
  return phrases.size > 0 ? `**Requires** ${[...phrases].join(', or ')}.` : undefined;
}
