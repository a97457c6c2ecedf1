import { followRefs, pointerSegment } from './json-pointer.js';

interface ResponseObject { $ref?: string; content?: Record<string, { schema?: unknown }> }
type PathItems = Record<string, Record<string, { responses?: Record<string, ResponseObject> } | undefined> | undefined>;

/** What the contract documents for one status of an operation. */
export interface DocumentedResponse {
  /** The key it is documented under: the status, its `NXX` range or `default`. */
  key: string;
  /** Where the response object is, after its `$ref`s: `#/components/responses/NotFound`. */
  pointer: string;
  /** The response object itself, or undefined when a `$ref` leads nowhere. */
  node: unknown;
  /** Its media types, each with the pointer of its schema. */
  media: Array<{ type: string; schemaPointer: string | undefined }>;
}

/**
 * The response an operation (`path` as the contract writes it, `method` lower case) documents for
 * a status: the exact code, else its `NXX` range, else `default`; undefined when none of them.
 */
export function documentedResponse(document: object, path: string, method: string, status: number): DocumentedResponse | undefined {
  const responses = (document as { paths?: PathItems }).paths?.[path]?.[method]?.responses ?? {};
  const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => Object.hasOwn(responses, k));
  if (key === undefined) return undefined;
  const { node, pointer } = followRefs(document, responses[key], `#/paths/${pointerSegment(path)}/${method}/responses/${pointerSegment(key)}`);
  const media = Object.entries((node as ResponseObject | undefined)?.content ?? {}).map(([type, m]) => ({
    type,
    schemaPointer: m.schema === undefined ? undefined : `${pointer}/content/${pointerSegment(type)}/schema`,
  }));
  return { key, pointer, node, media };
}
