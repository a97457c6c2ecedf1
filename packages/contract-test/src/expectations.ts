import type { ObservedResponse } from './http-exchange.js';
import { quoted } from './terminal-text.js';

/**
 * What one planned request must answer beyond conforming to the contract: the status the case is
 * about, its `code`, the parameters a 422 must name, the methods a 405 must allow, the scopes a
 * 403 must list. Each returns its problems; empty means met.
 */
export type Expectation = (response: ObservedResponse) => string[];

/** A HEAD answer has no body: its status and headers are checked, its envelope cannot be. */
function bodiless(response: ObservedResponse): boolean {
  return response.text === '' && response.json === undefined;
}

function envelope(response: ObservedResponse): { code?: unknown; messages?: unknown; data?: unknown } {
  return (response.json ?? {});
}

export function all(...expectations: Expectation[]): Expectation {
  return (response) => expectations.flatMap((e) => e(response));
}

/** Any 2xx: the request was valid, so a refusal is a failure. */
export const succeeds: Expectation = (response) =>
  response.status >= 200 && response.status < 300 ? [] : [`expected a 2xx answer to a valid request, got ${response.status}${codeText(response)}`];

/**
 * The operation reached: a 2xx, or the status the contract marks as a legitimate state of the
 * deployment (`x-absent-state`, e.g. 404 while no plan is on record).
 */
export function reaches(op: { absentState: number | undefined }): Expectation {
  return (response) => (op.absentState !== undefined && response.status === op.absentState ? [] : succeeds(response));
}

/** Whether an answer reached its operation (see `reaches`). */
export function reached(op: { absentState: number | undefined }, statusCode: number): boolean {
  return (statusCode >= 200 && statusCode < 300) || statusCode === op.absentState;
}

export function status(expected: number, code?: number | readonly number[]): Expectation {
  return (response) => {
    if (response.status !== expected) return [`expected ${expected}${code === undefined ? '' : ` (code ${[code].flat().join(' or ')})`}, got ${response.status}${codeText(response)}`];
    if (bodiless(response)) return [];
    const got = envelope(response).code;
    if (code !== undefined && ![code].flat().includes(got as number)) return [`expected code ${[code].flat().join(' or ')}, got ${JSON.stringify(got)}`];
    return [];
  };
}

/**
 * A 422 names every offending parameter: in `messages`, or in `data.errors[].name` where the
 * envelope carries a list. A name counts only as a whole word (`q` is not named by `query`).
 */
export function namesParameters(names: readonly string[]): Expectation {
  return (response) => {
    if (response.status !== 422 || bodiless(response)) return [];
    const { messages, data } = envelope(response);
    const text = typeof messages === 'string' ? messages : '';
    const listed = Array.isArray((data as { errors?: unknown } | null)?.errors)
      ? ((data as { errors: Array<{ name?: unknown }> }).errors).map((e) => String(e.name))
      : [];
    const missing = names.filter((name) => !listed.includes(name) && !new RegExp(`(^|[^A-Za-z0-9_])${escapeRegExp(name)}([^A-Za-z0-9_]|$)`).test(text));
    return missing.length === 0 ? [] : [`the 422 does not name ${missing.map((n) => `"${n}"`).join(', ')} (messages: ${JSON.stringify(text)})`];
  };
}

/** A 405's `Allow` lists every method the contract documents for the path, and not the refused one. */
export function allows(methods: readonly string[], refused: string): Expectation {
  return (response) => {
    if (response.status !== 405) return [];
    const allow = response.headers.get('allow');
    if (allow === null) return [];
    const listed = allow.split(',').map((m) => m.trim().toUpperCase()).filter((m) => m !== '');
    const problems: string[] = [];
    const absent = methods.filter((m) => !listed.includes(m));
    if (absent.length > 0) problems.push(`Allow: ${JSON.stringify(allow)} does not list ${absent.join(', ')}`);
    if (listed.includes(refused)) problems.push(`Allow: ${JSON.stringify(allow)} lists ${refused}, which was refused`);
    return problems;
  };
}

/**
 * A 403 for a missing scope lists the operation's `required` scopes and, as `missing`, exactly
 * those the key does not hold.
 */
export function refusesScope(required: readonly string[], granted: readonly string[]): Expectation {
  return (response) => {
    if (response.status !== 403 || bodiless(response)) return [];
    const data = envelope(response).data as { required?: unknown; missing?: unknown } | null;
    const given = { required: asList(data?.required), missing: asList(data?.missing) };
    const expected = { required: [...required].sort(), missing: required.filter((s) => !granted.includes(s)).sort() };
    const problems: string[] = [];
    if (required.length > 0 && JSON.stringify(given.required) !== JSON.stringify(expected.required)) {
      problems.push(`data.required is ${JSON.stringify(given.required)}, expected ${JSON.stringify(expected.required)}`);
    }
    if (required.length > 0 && JSON.stringify(given.missing) !== JSON.stringify(expected.missing)) {
      problems.push(`data.missing is ${JSON.stringify(given.missing)}, expected ${JSON.stringify(expected.missing)}`);
    }
    const held = given.missing.filter((s) => granted.includes(s));
    if (held.length > 0) problems.push(`data.missing lists ${held.join(', ')}, which the key holds`);
    return problems;
  };
}

function asList(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String).sort() : [];
}

function codeText(response: ObservedResponse): string {
  const { code, messages } = envelope(response);
  return code === undefined ? '' : ` (code ${JSON.stringify(code)}${typeof messages === 'string' ? `: ${quoted(messages)}` : ''})`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
