import { HTTP_METHODS } from './documents.js';
import { followRefs } from './json-pointer.js';
import { parametersByOperation, type ContractParameter } from './contract-parameters.js';
import { requirementOf, type OperationRequirement, type SecuredOperationObject, type SecuritySchemeObject } from './operation-requirements.js';

/** One operation of the contract, compiled once at start-up for the matcher and the guards. */
export interface ContractOperation {
  operationId: string;
  /** Upper case, as requests carry it. */
  method: string;
  /** The path exactly as the contract writes it, e.g. `/api/v1/visibility/prompts/{prompt}`. */
  path: string;
  requirement: OperationRequirement;
  /** Its documented query parameters by name, each with whether it may be sent empty. */
  queryParameters: ReadonlyMap<string, { allowEmpty: boolean }>;
  /** Whether it declares any parameter (path, query, header or cookie) or a request body: what request validation checks. */
  takesInput: boolean;
  /**
   * The value of each query parameter it defaults (the contract's `default:`), which a request
   * that leaves the parameter out gets: the handler sees them as sent (dispatch.ts).
   */
  queryDefaults: Readonly<Record<string, unknown>>;
  /**
   * The value of each property of its JSON request body that the contract defaults (`default:` on
   * the property, beside its `$ref` or in the schema it names), which a request that leaves the
   * property out, or sends no body, gets: the handler sees them as sent (src/http/dispatch.ts).
   */
  bodyDefaults: Readonly<Record<string, unknown>>;
  /** It takes an `Idempotency-Key` header (src/http/idempotent-writes.ts): a retry under the key gets the first answer. */
  idempotent: boolean;
  /**
   * It acts without writing to the database (`x-acts-without-writing: true`: a test delivery goes
   * to the receiver only), so its idempotent answer is kept after the fact, with no transaction open while it waits.
   */
  actsWithoutWriting: boolean;
  /** What the audit log records of it (`x-audit`); null when it states nothing (the read API). */
  audit: OperationAudit | null;
  /** Whether it declares a request body: only then is a body read (a body sent to any other operation is ignored). */
  takesBody: boolean;
  /** Whether it documents a 304: only then may a matching `If-None-Match` turn its 200 into one. */
  answersNotModified: boolean;
  /**
   * By status, the headers its response documents with one possible value (a `const`), such as
   * `Cache-Control: no-store` on an answer that carries a secret: the dispatcher sets them.
   */
  constantHeaders: ReadonlyMap<number, Readonly<Record<string, string>>>;
}

/**
 * What the audit log records of an operation, from its `x-audit`: the action it performs (or a
 * refused attempt names), one of the contract's `AuditAction` enum, and the object it acts on.
 */
export interface OperationAudit {
  action: string;
  /** The object's type, one of `AuditObjectType`; null when it acts on no single object. */
  object: {
    type: string;
    /** The path parameter holding the object's id; null for a creation, whose answer holds the created resource's id. */
    idParameter: string | null;
  } | null;
}

interface OperationObject extends SecuredOperationObject {
  operationId?: string;
  parameters?: unknown[];
  requestBody?: unknown;
  responses?: Record<string, unknown>;
  'x-acts-without-writing'?: unknown;
  'x-audit'?: unknown;
}

/** The request header under which a retry gets the first answer again. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
interface OpenApiDocument {
  paths?: Record<string, Record<string, unknown> & { parameters?: unknown[] }>;
  components?: {
    securitySchemes?: Record<string, SecuritySchemeObject>;
    schemas?: { MemberRole?: { enum?: string[] }; Scope?: { enum?: string[] }; AuditAction?: { enum?: string[] }; AuditObjectType?: { enum?: string[] } };
  };
}

/** Its query parameters by name, each with whether it may be sent empty. */
function queryParametersOf(parameters: readonly ContractParameter[]): Map<string, { allowEmpty: boolean }> {
  const query = new Map<string, { allowEmpty: boolean }>();
  for (const p of parameters) if (p.in === 'query' && p.name) query.set(p.name, { allowEmpty: p.allowEmptyValue });
  return query;
}

/** The defaulted query parameters' values by name. */
function queryDefaultsOf(parameters: readonly ContractParameter[]): Record<string, unknown> {
  return Object.fromEntries(parameters.filter((p) => p.in === 'query' && p.default !== undefined).map((p) => [p.name, p.default]));
}

/** The defaulted properties of the operation's JSON request body by name (references followed). */
function bodyDefaultsOf(document: object, requestBody: unknown): Record<string, unknown> {
  const body = followRefs(document, requestBody).node as { content?: Record<string, { schema?: unknown }> } | undefined;
  const schema = followRefs(document, body?.content?.['application/json']?.schema).node as { properties?: Record<string, unknown> } | undefined;
  const defaults: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema?.properties ?? {})) {
    const value = (property as { default?: unknown }).default ?? (followRefs(document, property).node as { default?: unknown } | undefined)?.default;
    if (value !== undefined) defaults[name] = value;
  }
  return defaults;
}

/** The headers each response documents with a `const` value, by status (references followed). */
function constantHeadersOf(document: object, responses: Record<string, unknown>): Map<number, Record<string, string>> {
  const byStatus = new Map<number, Record<string, string>>();
  for (const [status, written] of Object.entries(responses)) {
    const response = followRefs(document, written).node as { headers?: Record<string, unknown> } | undefined;
    const constants: Record<string, string> = {};
    for (const [name, header] of Object.entries(response?.headers ?? {})) {
      const schema = followRefs(document, (followRefs(document, header).node as { schema?: unknown } | undefined)?.schema).node as { const?: unknown } | undefined;
      if (typeof schema?.const === 'string') constants[name] = schema.const;
    }
    if (Object.keys(constants).length > 0 && /^\d{3}$/.test(status)) byStatus.set(Number(status), constants);
  }
  return byStatus;
}

/** The words an `x-audit` may use: the actions and object types the contract enumerates. */
interface AuditVocabulary {
  actions: readonly string[];
  objectTypes: readonly string[];
}

const AUDIT_KEYS = ['action', 'object', 'object-id'];

/**
 * The operation's `x-audit` (openapi/README.md), or null without one. Throws, naming the operation,
 * on one the service could not record as written: an action or object type the contract does not
 * enumerate, or an id parameter that is not one of its path parameters.
 */
function auditOf(written: unknown, vocabulary: AuditVocabulary, pathParameters: readonly string[], where: string): OperationAudit | null {
  if (written === undefined) return null;
  function fail(why: string): never {
    throw new Error(`${where}: x-audit ${why}`);
  }
  if (written === null || typeof written !== 'object' || Array.isArray(written)) fail(`must be an object with ${AUDIT_KEYS.join(', ')}`);
  const audit = written as Record<string, unknown>;
  const unknownKey = Object.keys(audit).find((key) => !AUDIT_KEYS.includes(key));
  if (unknownKey !== undefined) fail(`has no ${unknownKey}; it has ${AUDIT_KEYS.join(', ')}`);
  const { action, object, 'object-id': idParameter } = audit;
  if (typeof action !== 'string' || !vocabulary.actions.includes(action)) fail(`action ${JSON.stringify(action)} is not one of the contract's AuditAction`);
  if (object === undefined) {
    if (idParameter !== undefined) fail('names an object-id but no object');
    return { action, object: null };
  }
  if (typeof object !== 'string' || !vocabulary.objectTypes.includes(object)) fail(`object ${JSON.stringify(object)} is not one of the contract's AuditObjectType`);
  if (idParameter !== undefined && (typeof idParameter !== 'string' || !pathParameters.includes(idParameter))) {
    fail(`object-id ${JSON.stringify(idParameter)} is not a path parameter of the operation`);
  }
  return { action, object: { type: object, idParameter: idParameter ?? null } };
}

/** Every operation of the bundled document, in document order; throws where one cannot be enforced as written. */
export function compileOperations(document: object): ContractOperation[] {
  const doc = document as OpenApiDocument;
  const schemes = doc.components?.securitySchemes ?? {};
  // The words a `security` requirement may use: the scopes and member roles the contract enumerates.
  const vocabulary = { scopes: doc.components?.schemas?.Scope?.enum ?? [], roles: doc.components?.schemas?.MemberRole?.enum ?? [] };
  const auditVocabulary = { actions: doc.components?.schemas?.AuditAction?.enum ?? [], objectTypes: doc.components?.schemas?.AuditObjectType?.enum ?? [] };
  const parameters = parametersByOperation(document);
  const operations: ContractOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const op = item[method] as OperationObject | undefined;
      if (!op) continue;
      const where = `${method.toUpperCase()} ${path}`;
      if (!op.operationId) throw new Error(`${where}: has no operationId`);
      const declared = parameters.get(where) ?? [];
      const actsWithoutWriting = op['x-acts-without-writing'];
      if (actsWithoutWriting !== undefined && actsWithoutWriting !== true) throw new Error(`${where}: x-acts-without-writing must be true when present`);
      operations.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        requirement: requirementOf(op, schemes, vocabulary, where),
        queryParameters: queryParametersOf(declared),
        queryDefaults: queryDefaultsOf(declared),
        bodyDefaults: bodyDefaultsOf(document, op.requestBody),
        idempotent: declared.some((p) => p.in === 'header' && p.name.toLowerCase() === IDEMPOTENCY_KEY_HEADER.toLowerCase()),
        actsWithoutWriting: actsWithoutWriting === true,
        audit: auditOf(op['x-audit'], auditVocabulary, declared.filter((p) => p.in === 'path').map((p) => p.name), where),
        takesInput: (item.parameters ?? []).length + (op.parameters ?? []).length > 0 || op.requestBody !== undefined,
        takesBody: op.requestBody !== undefined,
        answersNotModified: op.responses?.['304'] !== undefined,
        constantHeaders: constantHeadersOf(document, op.responses ?? {}),
      });
    }
  }
  return operations;
}
