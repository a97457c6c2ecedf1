/** One line per violation of the house rules over a bundled OpenAPI or AsyncAPI document. */
export function checkHouseRules(doc: Record<string, unknown>): string[];
