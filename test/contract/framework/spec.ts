import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { loadOpenApiDocument } from '@workspace-read-api/contract/documents.js';
import type { ObservedResponse } from '../../support/http.js';

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

interface SchemaHolder { schema?: object; $ref?: string }
interface HeaderObject { schema?: { type?: string | string[] }; required?: boolean; $ref?: string }
interface ResponseObject {
  $ref?: string;
  headers?: Record<string, HeaderObject>;
  content?: Record<string, SchemaHolder>;
}
interface ParameterObject { $ref?: string; name?: string; in?: string }
interface OperationObject {
  operationId?: string;
  parameters?: ParameterObject[];
  requestBody?: unknown;
  responses?: Record<string, ResponseObject>;
  security?: Array<Record<string, string[]>>;
  'x-subscription-exempt'?: boolean;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
  components?: Record<string, Record<string, unknown>>;
}

/** One operation of the bundled contract, with the statuses it documents. */
export interface ContractOperation {
  operationId: string;
  method: string;
  /** The templated path, e.g. `/api/v1/visibility/prompts/{prompt}`. */
  path: string;
  /** Every documented status, ascending. */
  statuses: number[];
  /** Methods the path accepts, upper case (what `Allow` must list): HEAD wherever GET is. */
  pathMethods: string[];
  /** Names of the documented query parameters. */
  queryParameters: string[];
  /** Whether the operation documents a request body. */
  takesBody: boolean;
}

export type { ObservedResponse } from '../../support/http.js';

const DOCUMENT_ID = 'https://contract.test/openapi.json';

/** The bundled contract (`generated/openapi.json`), read once, with ajv compiled over it. */
export class Contract {
  readonly document: OpenApiDocument;
  readonly operations: ContractOperation[];
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(document: object = loadOpenApiDocument()) {
    this.document = document as OpenApiDocument;
    this.operations = listOperations(this.document, (p) => this.resolve(p));
    // OpenAPI 3.1 schemas are JSON Schema 2020-12; `example`, `description` and the document's own
    // keywords (`openapi`, `paths`, ...) are not validation keywords, hence strict: false.
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(this.ajv, { mode: 'full' });
    this.ajv.addSchema({ ...this.document, $id: DOCUMENT_ID });
  }

  operation(operationId: string): ContractOperation {
    const found = this.operations.find((o) => o.operationId === operationId);
    if (!found) throw new Error(`the contract has no operation ${operationId}`);
    return found;
  }

  /** Follows a local `$ref` (`#/components/...`) inside the bundled document. */
  resolve<T extends { $ref?: string }>(node: T): T {
    let current: T = node;
    for (let depth = 0; current.$ref !== undefined; depth++) {
      if (depth > 20 || !current.$ref.startsWith('#/')) throw new Error(`cannot resolve ${current.$ref}`);
      current = pointer(this.document, current.$ref) as T;
    }
    return current;
  }

  /** The operation's parameters (the path item's and its own), resolved. */
  parameters(op: ContractOperation): ParameterObject[] {
    const item = this.document.paths[op.path] as { parameters?: ParameterObject[] } & Record<string, OperationObject>;
    return [...(item.parameters ?? []), ...(item[op.method]?.parameters ?? [])].map((p) => this.resolve(p));
  }

  response(op: ContractOperation, status: number): ResponseObject {
    const raw = this.document.paths[op.path]?.[op.method]?.responses?.[String(status)];
    if (!raw) throw new Error(`${op.operationId} does not document ${status}`);
    return this.resolve(raw);
  }

  /**
   * Every way the observed response departs from what the contract documents for this status:
   * the JSON body against its schema, and every documented header present and valid. A documented
   * header is a promise to clients, so its absence is a violation, unless it says `required: false`.
   * A HEAD request is held to its GET's status and headers; it has no body to check.
   */
  violations(op: ContractOperation, observed: ObservedResponse, method = 'GET'): string[] {
    const problems: string[] = [];
    const documented = this.document.paths[op.path]?.[op.method]?.responses?.[String(observed.status)];
    if (!documented) return [`${op.operationId} answered ${observed.status}, which it does not document`];
    const response = this.resolve(documented);

    for (const [name, rawHeader] of Object.entries(response.headers ?? {})) {
      const header = this.resolve(rawHeader);
      const value = observed.headers.get(name);
      if (value === null) {
        // `required: false` in the header object marks a header sent on some answers only
        // (`Idempotent-Replayed`), as the `contract-test` checker reads it too.
        if (header.required !== false) problems.push(`header ${name} is documented for ${observed.status} but missing`);
        continue;
      }
      if (header.schema) {
        const schemaPath = headerSchemaPointer(documented, rawHeader, op, observed.status, name);
        const validate = this.validator(schemaPath);
        const typed = coerceHeader(value, header.schema.type);
        if (!validate(typed)) problems.push(`header ${name}: ${JSON.stringify(value)} ${this.ajv.errorsText(validate.errors)}`);
      }
    }

    const media = response.content?.['application/json'];
    if (media?.schema && method !== 'HEAD') {
      const contentType = observed.headers.get('content-type') ?? '';
      if (!contentType.startsWith('application/json')) problems.push(`content-type is ${contentType}, not application/json`);
      const schemaPath = documented.$ref
        ? `${documented.$ref}/content/application~1json/schema`
        : `#/paths/${escape(op.path)}/${op.method}/responses/${observed.status}/content/application~1json/schema`;
      const validate = this.validator(schemaPath);
      if (!validate(observed.body)) problems.push(`body: ${this.ajv.errorsText(validate.errors, { dataVar: 'body' })}`);
    }
    return problems;
  }

  private validator(localPointer: string): ValidateFunction {
    let validate = this.compiled.get(localPointer);
    if (!validate) {
      validate = this.ajv.getSchema(`${DOCUMENT_ID}${localPointer}`);
      if (!validate) throw new Error(`no schema at ${localPointer}`);
      this.compiled.set(localPointer, validate);
    }
    return validate;
  }
}

function headerSchemaPointer(
  documented: ResponseObject,
  rawHeader: HeaderObject,
  op: ContractOperation,
  status: number,
  name: string,
): string {
  if (rawHeader.$ref) return `${rawHeader.$ref}/schema`;
  const base = documented.$ref ?? `#/paths/${escape(op.path)}/${op.method}/responses/${status}`;
  return `${base}/headers/${escape(name)}/schema`;
}

/** Header values are strings on the wire; a numeric schema describes the number they spell. */
function coerceHeader(value: string, type: string | string[] | undefined): unknown {
  const types = Array.isArray(type) ? type : [type];
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  return value;
}

function escape(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function pointer(root: unknown, ref: string): unknown {
  let node = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = (node as Record<string, unknown> | undefined)?.[key];
    if (node === undefined) throw new Error(`dangling $ref ${ref}`);
  }
  return node;
}

function listOperations(document: OpenApiDocument, resolve: (p: ParameterObject) => ParameterObject): ContractOperation[] {
  const operations: ContractOperation[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    // The service answers HEAD wherever GET is, though the contract lists no HEAD operation.
    const pathMethods = HTTP_METHODS.filter((m) => item[m] || (m === 'head' && item.get)).map((m) => m.toUpperCase());
    const shared = ((item as { parameters?: ParameterObject[] }).parameters ?? []).map(resolve);
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op?.operationId) continue;
      const statuses = Object.keys(op.responses ?? {}).map(Number).filter(Number.isInteger).sort((a, b) => a - b);
      const queryParameters = [...shared, ...(op.parameters ?? []).map(resolve)]
        .filter((p) => p.in === 'query' && p.name !== undefined)
        .map((p) => p.name!);
      operations.push({ operationId: op.operationId, method, path, statuses, pathMethods, queryParameters, takesBody: op.requestBody !== undefined });
    }
  }
  return operations.sort((a, b) => a.operationId.localeCompare(b.operationId));
}
