// House rules redocly cannot express: every named schema and every property says what it means,
// no object schema is anonymous (inline objects become ugly generated type names), and every
// operation declares the permissions the service enforces.
import { readFileSync } from 'node:fs';

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
  if (doc.openapi) problems.push(...checkPermissions(doc));
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
      if (absent !== undefined && (!['get', 'head'].includes(method) || !Number.isInteger(absent) || absent < 400 || absent > 499 || !(String(absent) in (op.responses ?? {})))) {
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

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = process.argv.slice(2).flatMap((file) => checkHouseRules(JSON.parse(readFileSync(file, 'utf8'))).map((p) => `${file}: ${p}`));
  for (const p of problems) console.error(p);
  if (problems.length > 0) process.exit(1);
  console.log('house rules: no problems');
}
