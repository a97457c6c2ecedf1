import { HTTP_METHODS } from '@workspace-read-api/contract/documents.js';
import { schemaValidatorFor, type SchemaValidator } from '@workspace-read-api/contract/schema-validator.js';
import { followRefs, nodeAt, pointerSegment as escape } from '@workspace-read-api/contract/json-pointer.js';
import { documentedResponse } from '@workspace-read-api/contract/documented-response.js';

/** The JSON Schema subset the contract uses (see openapi/README and the house rules). */
export interface Schema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  default?: unknown;
  example?: unknown;
  examples?: unknown[];
  items?: Schema;
  oneOf?: Schema[];
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  minProperties?: number;
  description?: string;
}

export interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
  description?: string;
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
}

export interface SecurityScheme {
  type: string;
  scheme?: string;
  in?: string;
  name?: string;
  bearerFormat?: string;
  description?: string;
}

interface MediaType { schema?: Schema; example?: unknown }
interface HeaderObject { $ref?: string; schema?: Schema; required?: boolean }
interface LinkObject { $ref?: string; operationId?: string; parameters?: Record<string, unknown>; description?: string }
interface ResponseObject { $ref?: string; headers?: Record<string, HeaderObject>; content?: Record<string, MediaType>; links?: Record<string, LinkObject> }
interface OperationObject {
  operationId?: string;
  tags?: string[];
  description?: string;
  parameters?: Array<Parameter & { $ref?: string }>;
  requestBody?: { $ref?: string; required?: boolean; content?: Record<string, MediaType> };
  responses?: Record<string, ResponseObject>;
  security?: Array<Record<string, string[]>>;
  'x-absent-state'?: number;
}
interface OpenApiDocument {
  info?: { title?: string; version?: string; description?: string };
  tags?: Array<{ name?: string; description?: string }>;
  security?: Array<Record<string, string[]>>;
  paths?: Record<string, Record<string, OperationObject>>;
  components?: { securitySchemes?: Record<string, SecurityScheme>; schemas?: Record<string, Schema> };
}

/** An OpenAPI link of a documented response: what the answer names that another operation takes. */
interface ContractLink {
  /** The response key it hangs on (`200`, `201`). */
  status: string;
  operationId: string;
  /** Parameter name → runtime expression (`$response.body#/data/items/0/id`, `$request.path.workspace_id`) or a constant. */
  parameters: Record<string, unknown>;
  description: string;
}

/**
 * The name the checker gives the HEAD of a GET the contract lists no HEAD operation for: `head` +
 * the GET's operationId without a leading `get`, first letter upper-cased (getMe → headMe,
 * listPrompts → headListPrompts), as the contract's HEAD operations were named up to 1.2.0.
 */
export function headOperationId(getOperationId: string): string {
  const rest = getOperationId.replace(/^get(?=[A-Z])/, '');
  return `head${rest.charAt(0).toUpperCase()}${rest.slice(1)}`;
}

/** One operation as the checker needs it: parameters and security already resolved. */
export interface Operation {
  operationId: string;
  /** Upper case, as sent. */
  method: string;
  /** The templated path, e.g. `/api/v1/visibility/prompts/{prompt}`. */
  path: string;
  tag: string;
  description: string;
  parameters: Parameter[];
  /** Response keys as documented: `200`, `4XX`, `default`. */
  responseKeys: string[];
  /** Alternatives: each entry names the schemes (with their scopes) that together satisfy it. */
  security: Array<Record<string, string[]>>;
  requestBody: { required: boolean; schemaPointer: string | undefined } | undefined;
  /** JSON pointer of the operation inside the document. */
  pointer: string;
  /**
   * A documented status that is a legitimate state of a deployment (`x-absent-state`, e.g. 404 for a
   * plan not imported yet): it reaches the operation as a 2xx does. A HEAD shares its GET's.
   */
  absentState: number | undefined;
  /** The `links` of its documented responses: which operation takes what an answer names. */
  links: ContractLink[];
}

/** A documented response with the pointers its schemas are validated through. */
export interface DocumentedResponse {
  key: string;
  pointer: string;
  headers: Array<{ name: string; pointer: string; schema: Schema | undefined; required: boolean }>;
  media: Array<{ type: string; schemaPointer: string | undefined }>;
}

/**
 * The OpenAPI contract read for checking: operations, responses and their schemas compiled with
 * Ajv (JSON Schema 2020-12, formats in full mode, as the service validates requests).
 */
export class OpenApiContract {
  readonly operations: Operation[];
  private readonly document: OpenApiDocument;
  private readonly validator: SchemaValidator;

  constructor(document: object) {
    this.document = document;
    this.validator = schemaValidatorFor(document);
    this.operations = this.listOperations();
  }

  get title(): string {
    return this.document.info?.title ?? 'API';
  }

  get version(): string {
    return this.document.info?.version ?? 'unknown';
  }

  operation(operationId: string): Operation | undefined {
    return this.operations.find((o) => o.operationId === operationId);
  }

  /** The methods a path accepts, upper case, in the document's order. */
  pathMethods(path: string): string[] {
    const item = this.document.paths?.[path] ?? {};
    return HTTP_METHODS.filter((m) => item[m]).map((m) => m.toUpperCase());
  }

  securityScheme(name: string): SecurityScheme | undefined {
    return this.document.components?.securitySchemes?.[name];
  }

  /** Follows `$ref`s inside the document. */
  schema(node: Schema | undefined): Schema | undefined {
    return node === undefined ? undefined : this.resolve(node).node;
  }

  /** The schema at a pointer of the document (`#/paths/…/schema`), its `$ref`s followed. */
  schemaAt(pointer: string): Schema | undefined {
    return this.schema(nodeAt(this.document, pointer) as Schema | undefined);
  }

  /** The values of a named schema's `enum` (e.g. `Scope`); empty when it has none. */
  enumOf(schemaName: string): string[] {
    const values = this.document.components?.schemas?.[schemaName]?.enum ?? [];
    return values.filter((v): v is string => typeof v === 'string');
  }

  /**
   * The statuses of the order of checks documented for an operation, in order (a status may come
   * twice: the administration API's `404 (another workspace) → … → 422 → 404 (resource)`): the
   * "Order of checks" of a tag that states one for the operation's tag or for a path prefix it
   * names ("Under `/api/workspace/{workspace_id}`"), else the guide tag "Order of checks" (the
   * rules of every operation, kept out of `info`), else the info description's; empty when the
   * contract states none.
   */
  orderOfChecks(op?: Operation): number[] {
    const stated = (text: string): number[] => {
      const paragraph = /order of checks[^\n]*(?:\n(?!\n)[^\n]*)*/i.exec(text)?.[0] ?? '';
      return [...paragraph.matchAll(/\b([1-5]\d\d)\b/g)].map((m) => Number(m[1]));
    };
    const tags = (this.document.tags ?? []).filter((t) => stated(t.description ?? '').length > 0);
    const own = op && (tags.find((t) => t.name === op.tag)
      ?? tags.find((t) => [...(t.description ?? '').matchAll(/Under\s+`([^`]+)`/g)].some((m) => op.path.startsWith(m[1]!))));
    const guide = (this.document.tags ?? []).find((t) => /^order of checks$/i.test(t.name ?? ''));
    const general = guide === undefined ? this.document.info?.description ?? '' : `Order of checks: ${guide.description ?? ''}`;
    return stated(own?.description ?? general);
  }

  /** The response documented for a status: the exact code, else its `NXX` range, else `default`. */
  response(op: Operation, status: number): DocumentedResponse | undefined {
    // The pointer names the method the contract documents: a HEAD derived from a GET has the GET's.
    const documented = documentedResponse(this.document, op.path, op.pointer.slice(op.pointer.lastIndexOf('/') + 1), status);
    if (documented === undefined) return undefined;
    const { key, pointer, media } = documented;
    if (documented.node === undefined) throw new Error(`the contract has nothing at ${pointer}`);
    const node = documented.node as ResponseObject;
    const headers = Object.entries(node.headers ?? {}).map(([name, raw]) => {
      const header = this.resolve<HeaderObject>(raw, `${pointer}/headers/${escape(name)}`);
      return {
        name,
        pointer: `${header.pointer}/schema`,
        schema: this.schema(header.node.schema),
        required: header.node.required ?? true,
      };
    });
    return { key, pointer, headers, media };
  }

  /** Problems of a value against the schema at a pointer; empty when it is valid. */
  validate(schemaPointer: string, value: unknown): string[] {
    return this.validator.problems(schemaPointer, value);
  }

  /** The problems of a request body against the operation's request schema. */
  requestBodyProblems(op: Operation, body: unknown): string[] {
    const pointer = op.requestBody?.schemaPointer;
    return pointer === undefined ? [] : this.validate(pointer, body);
  }

  private resolve<T extends { $ref?: string }>(node: T, pointer = ''): { node: T; pointer: string } {
    const found = followRefs(this.document, node, pointer);
    if (found.node === undefined) throw new Error(`the contract has nothing at ${found.pointer}`);
    const ref = (found.node as T).$ref;
    // Still a reference: one outside the document, or a chain longer than followRefs follows.
    if (ref !== undefined) throw new Error(`cannot follow ${ref}`);
    return found as { node: T; pointer: string };
  }

  /** The operations some link of the contract leads to. */
  linkTargets(): Set<string> {
    return new Set(this.operations.flatMap((o) => o.links.map((l) => l.operationId)));
  }

  private linksOf(op: OperationObject, pointer: string): ContractLink[] {
    return Object.entries(op.responses ?? {}).flatMap(([status, raw]) => {
      const response = this.resolve(raw, `${pointer}/responses/${status}`).node;
      return Object.entries(response.links ?? {}).map(([name, rawLink]) => {
        const link = this.resolve(rawLink).node;
        if (!link.operationId) throw new Error(`the link ${name} of ${pointer} names no operationId`);
        return { status, operationId: link.operationId, parameters: link.parameters ?? {}, description: link.description ?? '' };
      });
    });
  }

  private listOperations(): Operation[] {
    const operations: Operation[] = [];
    const absentStates = new Map<string, number>();
    for (const [path, item] of Object.entries(this.document.paths ?? {})) {
      const absent = item.get?.['x-absent-state'];
      if (typeof absent === 'number') absentStates.set(path, absent);
    }
    for (const [path, item] of Object.entries(this.document.paths ?? {})) {
      const shared = ((item as { parameters?: Array<Parameter & { $ref?: string }> }).parameters ?? []).map((p) => this.resolve(p).node);
      for (const method of HTTP_METHODS) {
        const op = item[method];
        if (!op?.operationId) continue;
        const pointer = `#/paths/${escape(path)}/${method}`;
        const own = (op.parameters ?? []).map((p) => this.resolve(p).node);
        const parameters = [...shared.filter((s) => !own.some((o) => o.name === s.name && o.in === s.in)), ...own];
        const body = op.requestBody ? this.resolve(op.requestBody, `${pointer}/requestBody`) : undefined;
        const jsonBody = body?.node.content?.['application/json'];
        operations.push({
          operationId: op.operationId,
          method: method.toUpperCase(),
          path,
          tag: op.tags?.[0] ?? '',
          description: op.description ?? '',
          parameters,
          responseKeys: Object.keys(op.responses ?? {}),
          security: op.security ?? this.document.security ?? [],
          requestBody: body && {
            required: body.node.required ?? false,
            schemaPointer: jsonBody?.schema ? `${body.pointer}/content/application~1json/schema` : undefined,
          },
          pointer,
          absentState: typeof op['x-absent-state'] === 'number' ? op['x-absent-state']
            : method === 'head' ? absentStates.get(path) : undefined,
          links: this.linksOf(op, pointer),
        });
        // Every GET answers HEAD (RFC 9110; a contract says so in `x-head-for-every-get` rather
        // than listing HEAD operations): where the path lists none, its GET's HEAD is checked as
        // an operation of its own, held to the GET's documented statuses and headers.
        if (method === 'get' && !item.head) {
          const get = operations.at(-1)!;
          operations.push({ ...get, operationId: headOperationId(get.operationId), method: 'HEAD', links: [] });
        }
      }
    }
    return operations.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  }
}

