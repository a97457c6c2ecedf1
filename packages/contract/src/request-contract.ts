/**
 * The part of the contract that describes requests: every path and operation with its parameters
 * and body, its answers reduced to one bare default answer, and only the components those
 * refer to (with what they refer to in turn), the security schemes whole.
 *
 * The request validator (request-validator.ts) compiles two schemas for each operation on its first
 * request, and each of them carries the whole document it was given, which the schema compiler
 * walks end to end: most of that document is answers, which the validator never checks
 * (response-check.ts does, in tests). Given this part instead, each compile walks about a quarter
 * of the bytes.
 */
import { HTTP_METHODS } from './documents.js';
import { keyOfSegment, referencesIn } from './json-pointer.js';

type Json = Record<string, unknown>;

const METHODS: ReadonlySet<string> = new Set(HTTP_METHODS);
const LOCAL_COMPONENT = /^#\/components\/([^/]+)\/([^/]+)$/;

/** What stands for an operation's answers: the document must name at least one. */
const BARE_RESPONSES = { default: { description: 'Answers are checked elsewhere.' } };

function withBareResponses(pathItem: Json): Json {
  return Object.fromEntries(Object.entries(pathItem).map(([key, value]) => {
    if (!METHODS.has(key) || typeof value !== 'object' || value === null) return [key, value];
    return [key, { ...(value as Json), responses: BARE_RESPONSES }];
  }));
}

export function requestContract(document: object): object {
  const doc = document as Json;
  const paths = Object.fromEntries(Object.entries((doc.paths ?? {}) as Record<string, Json>).map(([path, item]) => [path, withBareResponses(item)]));
  const components = (doc.components ?? {}) as Record<string, Json>;
  const kept: Record<string, Json> = components.securitySchemes ? { securitySchemes: components.securitySchemes } : {};
  const pending = referencesIn(paths);
  for (let ref = pending.pop(); ref !== undefined; ref = pending.pop()) {
    const match = LOCAL_COMPONENT.exec(ref);
    if (match === null) continue;
    const [section, name] = [keyOfSegment(match[1]!), keyOfSegment(match[2]!)];
    if (kept[section] !== undefined && Object.hasOwn(kept[section], name)) continue;
    const component = components[section]?.[name];
    if (component === undefined) continue; // left for the validator to report, as it would in the whole document
    (kept[section] ??= {})[name] = component;
    referencesIn(component, pending);
  }
  return { ...doc, paths, components: kept };
}
