/** What a security scheme of the contract carries, from its `x-credential`. */
type Credential = 'api_key' | 'member_token';

/**
 * What an operation asks of its caller, read from its `security` and extensions in the contract
 * (openapi/README.md, "Permissions"): the guards enforce this and nothing else.
 */
export interface OperationRequirement {
  /** The credentials it accepts. */
  credentials: readonly Credential[];
  /** Scopes an API key must all hold, each one of the contract's `Scope` enum; empty when any key will do. */
  scopes: readonly string[];
  /** Roles of which a member token's user must have one, each one of its `MemberRole` enum; empty when every member may. */
  roles: readonly string[];
  /** Answers without an active subscription (`x-subscription-exempt: true`). */
  subscriptionExempt: boolean;
}

export interface SecuritySchemeObject {
  'x-credential'?: unknown;
}

export interface SecuredOperationObject {
  security?: Array<Record<string, string[]>>;
  'x-subscription-exempt'?: unknown;
}

const isCredential = (value: unknown): value is Credential => value === 'api_key' || value === 'member_token';

/** The one list every scheme of a credential names: a client may send either header, so they must agree. */
function agreedList(lists: string[][], credential: Credential, where: string): string[] {
  const [first = [], ...others] = lists;
  const same = (a: string[], b: string[]) => a.length === b.length && a.every((v) => b.includes(v));
  if (others.some((list) => !same(list, first))) throw new Error(`${where}: its ${credential} schemes name different requirements`);
  return first;
}

/**
 * The requirement of one operation. Throws, naming the operation, when the contract says something
 * the guards could not enforce as written, so a bad document stops the service at start-up instead
 * of opening an operation to everyone.
 */
export function requirementOf(
  op: SecuredOperationObject,
  schemes: Readonly<Record<string, SecuritySchemeObject>>,
  vocabulary: { scopes: readonly string[]; roles: readonly string[] },
  where: string,
): OperationRequirement {
  if (!Array.isArray(op.security) || op.security.length === 0) throw new Error(`${where}: declares no security requirement`);
  const lists = new Map<Credential, string[][]>();
  for (const requirement of op.security) {
    const names = Object.keys(requirement);
    const scheme = names.length === 1 && Object.hasOwn(schemes, names[0]!) ? schemes[names[0]!] : undefined;
    const credential = scheme?.['x-credential'];
    if (!isCredential(credential)) throw new Error(`${where}: security requirement ${JSON.stringify(requirement)} names no scheme with an x-credential`);
    lists.set(credential, [...(lists.get(credential) ?? []), requirement[names[0]!] ?? []]);
  }
  const scopes = agreedList(lists.get('api_key') ?? [], 'api_key', where);
  const memberRoles = agreedList(lists.get('member_token') ?? [], 'member_token', where);
  const unknownScope = scopes.find((s) => !vocabulary.scopes.includes(s));
  if (unknownScope !== undefined) throw new Error(`${where}: ${unknownScope} is not a scope`);
  const unknownRole = memberRoles.find((r) => !vocabulary.roles.includes(r));
  if (unknownRole !== undefined) throw new Error(`${where}: ${unknownRole} is not a member role`);
  const exempt = op['x-subscription-exempt'];
  if (exempt !== undefined && exempt !== true) throw new Error(`${where}: x-subscription-exempt must be true when present`);
  return {
    credentials: [...lists.keys()],
    scopes,
    roles: memberRoles,
    subscriptionExempt: exempt === true,
  };
}
