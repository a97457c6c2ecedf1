// House rules redocly cannot express: every named schema and every property says what it means,
// no object schema is anonymous (inline objects become ugly generated type names), every
// operation declares the permissions the service enforces, every administration operation what
// the audit log records of it (`x-audit`), and every GET has what the service
// answers to every read (its body schema, conditional headers and 304), and the document says once that every GET answers HEAD.
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/** Returns one line per violation over a bundled OpenAPI or AsyncAPI document. */
export function checkHouseRules(doc) {
  const problems = [];
  const schemas = doc.components?.schemas ?? {};
  const visit = (schema, where, named) => {
    if (!schema || typeof schema !== 'object' || schema.$ref) return;
    const isObject = schema.type === 'object' || (Array.isArray(schema.type) && schema.type.includes('object')) || schema.properties;
    if (isObject && !named) problems.push(`${where}: inline object schema; move it to components/schemas and $ref it`);
    for (const [name, prop] of Object.entries(schema.properties ?? {})) {
      if (!prop.$ref && !prop.description) problems.push(`${where}.${name}: property has no description`);
      visit(prop, `${where}.${name}`, false);
    }
    if (schema.items) visit(schema.items, `${where}[]`, false);
    for (const key of ['oneOf', 'anyOf', 'allOf']) (schema[key] ?? []).forEach((s, i) => visit(s, `${where}.${key}[${i}]`, false));
    if (typeof schema.additionalProperties === 'object') visit(schema.additionalProperties, `${where}{}`, false);
  };
  for (const [name, schema] of Object.entries(schemas)) {
    if (!schema.description) problems.push(`components.schemas.${name}: schema has no description`);
    visit(schema, `components.schemas.${name}`, true);
  }
  const mediaSchemas = [];
  for (const [p, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item)) {
      if (typeof op !== 'object' || !op) continue;
      for (const param of op.parameters ?? []) {
        if (!param.$ref && !param.description) problems.push(`${method.toUpperCase()} ${p}: parameter ${param.name} has no description`);
      }
      for (const [status, res] of Object.entries(op.responses ?? {})) {
        for (const [type, media] of Object.entries(res.content ?? {})) mediaSchemas.push([`${method.toUpperCase()} ${p} ${status} ${type}`, media.schema]);
      }
      for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) mediaSchemas.push([`${method.toUpperCase()} ${p} body ${type}`, media.schema]);
    }
  }
  for (const [where, schema] of mediaSchemas) visit(schema, where, false);
  for (const [name, param] of Object.entries(doc.components?.parameters ?? {})) {
    if (!param.description) problems.push(`components.parameters.${name}: parameter has no description`);
  }
  if (doc.openapi) problems.push(...checkPermissions(doc), ...checkReads(doc), ...checkLinks(doc), ...checkWriteMarkers(doc), ...checkAuditMarkers(doc), ...checkLineExamples(doc));
  return problems;
}

const escapePointer = (segment) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * A download that is a sequence of lines (`x-item-schema` beside a string schema, NDJSON) gives an
 * example of the file whose every line is one JSON text valid against `x-item-schema`: the mock
 * serves it, and redocly checks it only as a string.
 */
function checkLineExamples(doc) {
  const problems = [];
  let ajv;
  for (const [p, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item)) {
      for (const [status, response] of Object.entries(op?.responses ?? {})) {
        for (const [type, media] of Object.entries(response?.content ?? {})) {
          if (media?.['x-item-schema'] === undefined) continue;
          const where = `${method.toUpperCase()} ${p} ${status} ${type}`;
          if (typeof media.example !== 'string' || media.example.trim() === '') {
            problems.push(`${where}: the example is not the text of a file of lines`);
            continue;
          }
          if (!ajv) {
            ajv = new Ajv2020({ strict: false, allErrors: true });
            addFormats(ajv, { mode: 'full' });
            ajv.addSchema({ ...doc, $id: 'https://openapi.test/doc.json' });
          }
          const pointer = ['paths', p, method, 'responses', status, 'content', type, 'x-item-schema'].map(escapePointer).join('/');
          const validate = ajv.getSchema(`https://openapi.test/doc.json#/${pointer}`);
          for (const [i, line] of media.example.replace(/\n$/, '').split('\n').entries()) {
            let value;
            try {
              value = JSON.parse(line);
            } catch {
              problems.push(`${where}: example line ${i + 1} is not one JSON text`);
              continue;
            }
            if (!validate(value)) problems.push(`${where}: example line ${i + 1}: ${ajv.errorsText(validate.errors, { dataVar: 'line' })}`);
          }
        }
      }
    }
  }
  return problems;
}

/**
 * Every response link (which `contract-test` follows) says why, leads to an operation that
 * exists, and gives each of that operation's path parameters, and nothing else, a runtime
 * expression the checker resolves: `$response.body#/…` or `$request.path.<a path parameter of
 * the operation it hangs on>`.
 */
function checkLinks(doc) {
  const problems = [];
  const operations = new Map();
  const pathNames = (p) => [...p.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  for (const [p, item] of Object.entries(doc.paths ?? {})) {
    for (const op of Object.values(item)) if (op?.operationId) operations.set(op.operationId, pathNames(p));
  }
  for (const [p, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item)) {
      for (const [status, res] of Object.entries(op?.responses ?? {})) {
        for (const [name, raw] of Object.entries(followed(doc, res)?.links ?? {})) {
          const link = followed(doc, raw);
          const where = `${method.toUpperCase()} ${p} ${status} link ${name}`;
          const target = operations.get(link.operationId);
          if (!link.description) problems.push(`${where}: no description`);
          if (target === undefined) { problems.push(`${where}: no operation ${link.operationId}`); continue; }
          const given = Object.keys(link.parameters ?? {});
          for (const missing of target.filter((n) => !given.includes(n))) problems.push(`${where}: gives no value for {${missing}}`);
          for (const [param, expression] of Object.entries(link.parameters ?? {})) {
            if (!target.includes(param)) problems.push(`${where}: ${link.operationId} has no path parameter ${param}`);
            const fromPath = /^\$request\.path\.(.+)$/.exec(String(expression))?.[1];
            if (fromPath !== undefined ? !pathNames(p).includes(fromPath) : !/^\$response\.body#\/./.test(String(expression))) {
              problems.push(`${where}: ${param}: ${expression} is neither $response.body#/… nor $request.path.<a parameter of ${p}>`);
            }
          }
        }
      }
    }
  }
  return problems;
}

/** The object a `#/components/...` reference names, or the object itself. */
function followed(doc, node) {
  const ref = node?.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return node;
  return ref.slice(2).split('/').reduce((at, key) => (at === undefined || !Object.hasOwn(at, key) ? undefined : at[key]), doc);
}

const CONDITIONAL_HEADERS = ['ETag', 'Cache-Control', 'Vary'];

/**
 * What the service answers to every GET (src/http/conditional-get.ts, src/http/head-requests.ts)
 * is in the document: a 200 with a body schema and the conditional headers, and a 304 unless the
 * GET says `x-conditional: false`. HEAD is said once, in the top-level `x-head-for-every-get`, and
 * never as an operation (generators doubled every client with them). The bundle derives all but
 * the body (scripts/operation-derivation.mjs); this checks the result, whatever wrote it.
 */
function checkReads(doc) {
  const problems = [];
  if (doc['x-head-for-every-get']?.enabled !== true) problems.push('the document does not say `x-head-for-every-get: {enabled: true, description}`: every GET answers HEAD');
  for (const [p, item] of Object.entries(doc.paths ?? {})) {
    if (item.head) problems.push(`HEAD ${p}: a HEAD operation; the service answers HEAD for every GET, as \`x-head-for-every-get\` says`);
    const get = item.get;
    if (!get) continue;
    const where = `GET ${p}`;
    const ok = followed(doc, get.responses?.['200']);
    if (!ok) {
      problems.push(`${where}: has no 200 response`);
    } else {
      const media = Object.entries(ok.content ?? {});
      if (media.length === 0 || media.some(([, m]) => !m?.schema)) problems.push(`${where} 200: has no body schema for each media type`);
      for (const name of CONDITIONAL_HEADERS) {
        if (!Object.hasOwn(ok.headers ?? {}, name)) problems.push(`${where} 200: has no ${name} header`);
      }
    }
    const conditional = get['x-conditional'] !== false;
    if (conditional !== Object.hasOwn(get.responses ?? {}, '304')) {
      problems.push(`${where}: ${conditional ? 'has no 304 (say `x-conditional: false` if it never answers one)' : 'says `x-conditional: false` but documents a 304'}`);
    }
  }
  return problems;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const CREDENTIALS = ['api_key', 'member_token'];

/**
 * The service builds its guards from each operation's `security` (see openapi/README.md), so an
 * operation must say what it needs itself: no inherited or empty requirement, every scheme marked
 * with the credential it carries, scopes and roles from their schemas, and the same list on every
 * scheme of one credential (a client may use either header).
 */
function checkPermissions(doc) {
  const problems = [];
  const schemes = doc.components?.securitySchemes ?? {};
  for (const [name, scheme] of Object.entries(schemes)) {
    if (!CREDENTIALS.includes(scheme['x-credential'])) {
      problems.push(`components.securitySchemes.${name}: x-credential must be one of ${CREDENTIALS.join(', ')}`);
    }
  }
  if (doc.security !== undefined) problems.push('security: declare it on each operation, not for the whole document');
  const allowed = {
    api_key: new Set(doc.components?.schemas?.Scope?.enum ?? []),
    member_token: new Set(doc.components?.schemas?.MemberRole?.enum ?? []),
  };
  for (const [p, item] of Object.entries(doc.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op) continue;
      const where = `${method.toUpperCase()} ${p}`;
      // A legitimate absent state is one of the operation's own documented refusals, on a read.
      const absent = op['x-absent-state'];
      if (absent !== undefined && (method !== 'get' || !Number.isInteger(absent) || absent < 400 || absent > 499 || !(String(absent) in (op.responses ?? {})))) {
        problems.push(`${where}: x-absent-state must be a 4xx status the read documents (found ${JSON.stringify(absent)})`);
      }
      if (!Array.isArray(op.security) || op.security.length === 0) {
        problems.push(`${where}: declares no security requirement; name its credentials and scope in \`security\``);
        continue;
      }
      const lists = { api_key: [], member_token: [] };
      for (const requirement of op.security) {
        const names = Object.keys(requirement);
        if (names.length !== 1) {
          problems.push(`${where}: each security requirement names exactly one scheme (found ${names.length})`);
          continue;
        }
        const credential = schemes[names[0]]?.['x-credential'];
        if (!CREDENTIALS.includes(credential)) {
          problems.push(`${where}: security scheme ${names[0]} is not a scheme with an x-credential`);
          continue;
        }
        const list = requirement[names[0]];
        for (const value of list) {
          if (!allowed[credential].has(value)) problems.push(`${where}: ${names[0]} lists ${value}, which is not a ${credential === 'api_key' ? 'Scope' : 'MemberRole'}`);
        }
        lists[credential].push(JSON.stringify([...list].sort()));
      }
      for (const [credential, found] of Object.entries(lists)) {
        if (new Set(found).size > 1) problems.push(`${where}: its ${credential} schemes list different requirements (${found.join(' vs ')})`);
      }
      const exempt = op['x-subscription-exempt'];
      if (exempt !== undefined && (exempt !== true || lists.api_key.length === 0)) {
        problems.push(`${where}: x-subscription-exempt is only \`true\`, on an operation that takes API keys`);
      }
      // The prose may name the scope for readers, but only the one `security` requires.
      const declared = new Set(lists.api_key.flatMap((l) => JSON.parse(l)));
      for (const scope of allowed.api_key) {
        if (String(op.description ?? '').includes(`\`${scope}\``) && !declared.has(scope)) {
          problems.push(`${where}: the description names \`${scope}\`, which its security does not require`);
        }
      }
    }
  }
  return problems;
}

/**
 * The service reads how it runs a write from the operation (packages/contract/src/contract-operations.ts): a
 * request is idempotent under its `Idempotency-Key` where the operation declares that header, as
 * every POST of the administration API must; `x-acts-without-writing: true` keeps the answer after
 * the fact, for an idempotent operation that writes nothing to the database.
 */
function checkWriteMarkers(doc) {
  const problems = [];
  const schemes = doc.components?.securitySchemes ?? {};
  for (const { method, op, where, parameters } of operationsOf(doc)) {
    const idempotent = parameters.some((param) => param?.in === 'header' && String(param.name).toLowerCase() === 'idempotency-key');
    const administration = (op.security ?? []).some((r) => Object.keys(r).some((name) => schemes[name]?.['x-credential'] === 'member_token'));
    if (method === 'post' && administration && !idempotent) problems.push(`${where}: an administration POST takes an Idempotency-Key header (components/parameters/IdempotencyKey.yaml)`);
    const acts = op['x-acts-without-writing'];
    if (acts !== undefined && (acts !== true || !idempotent)) {
      problems.push(`${where}: x-acts-without-writing is only \`true\`, on an operation that takes an Idempotency-Key`);
    }
  }
  return problems;
}

/** Each operation: its path, method, `GET /path` and parameters (its path item's first, references followed). */
function* operationsOf(doc) {
  const parameterOf = (p) => (typeof p?.$ref === 'string' ? doc.components?.parameters?.[p.$ref.split('/').pop()] : p);
  for (const [p, item] of Object.entries(doc.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (op) yield { p, method, op, where: `${method.toUpperCase()} ${p}`, parameters: [...(item.parameters ?? []), ...(op.parameters ?? [])].map(parameterOf) };
    }
  }
}

const ADMINISTRATION_PATH = /^\/api\/workspace\//;
const AUDIT_KEYS = ['action', 'object', 'object-id'];

/**
 * What the audit log records of each administration operation is read from its `x-audit`
 * (packages/contract/src/contract-operations.ts), so every operation under `/api/workspace/` states
 * one and no read-API operation does: an action of the `AuditAction` enum, the type of the object
 * it acts on from `AuditObjectType` (none: no single object), and the path parameter holding that
 * object's id; without one, the id is the created resource's, so only a creation (201) leaves it out.
 */
function checkAuditMarkers(doc) {
  const problems = [];
  const actions = doc.components?.schemas?.AuditAction?.enum ?? [];
  const objectTypes = doc.components?.schemas?.AuditObjectType?.enum ?? [];
  for (const { p, op, where, parameters } of operationsOf(doc)) {
    const audit = op['x-audit'];
    if (!ADMINISTRATION_PATH.test(p)) {
      if (audit !== undefined) problems.push(`${where}: x-audit is for administration operations (/api/workspace/); the audit log records nothing of the read API`);
      continue;
    }
    if (audit === undefined) {
      problems.push(`${where}: an administration operation states what the audit log records of it in \`x-audit: {action, object, object-id}\``);
      continue;
    }
    if (audit === null || typeof audit !== 'object' || Array.isArray(audit)) {
      problems.push(`${where}: x-audit is an object with ${AUDIT_KEYS.join(', ')}`);
      continue;
    }
    for (const key of Object.keys(audit).filter((k) => !AUDIT_KEYS.includes(k))) problems.push(`${where}: x-audit has no ${key}; it has ${AUDIT_KEYS.join(', ')}`);
    if (!actions.includes(audit.action)) problems.push(`${where}: x-audit action ${JSON.stringify(audit.action)} is not an AuditAction`);
    if (audit.object !== undefined && !objectTypes.includes(audit.object)) problems.push(`${where}: x-audit object ${JSON.stringify(audit.object)} is not an AuditObjectType`);
    const idParameter = audit['object-id'];
    if (idParameter !== undefined) {
      const pathParameters = parameters.filter((param) => param?.in === 'path').map((param) => param.name);
      if (audit.object === undefined) problems.push(`${where}: x-audit object-id names the id of an object, but x-audit names no object`);
      else if (!pathParameters.includes(idParameter)) problems.push(`${where}: x-audit object-id ${JSON.stringify(idParameter)} is not a path parameter of the operation`);
    } else if (audit.object !== undefined && !Object.hasOwn(op.responses ?? {}, '201')) {
      problems.push(`${where}: x-audit object without object-id reads the id of a created resource from the answer, but the operation creates nothing (no 201); name the path parameter holding its id`);
    }
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = process.argv.slice(2).flatMap((file) => checkHouseRules(JSON.parse(readFileSync(file, 'utf8'))).map((p) => `${file}: ${p}`));
  for (const p of problems) console.error(p);
  if (problems.length > 0) process.exit(1);
  console.log('house rules: no problems');
}
