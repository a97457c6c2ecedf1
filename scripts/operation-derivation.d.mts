/** The methods of a path item, in the order OpenAPI lists them. */
export const HTTP_METHODS: readonly string[];

/**
 * Adds the derived parts (success headers, a GET's 304, the standard refusals) to one path item,
 * and returns what the path item writes by hand that is derived or refused (a `head` operation).
 */
export function deriveOperationParts(
  pathItem: Record<string, unknown>,
  context: { ref: (kind: string, name: string) => { $ref: string }; schemes: Record<string, { 'x-credential'?: unknown }> },
): Array<{ where: string[]; message: string }>;
