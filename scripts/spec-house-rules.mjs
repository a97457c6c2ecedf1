// House rules redocly cannot express: every named schema and every property says what it means,
// and no object schema is anonymous (inline objects become ugly generated type names).
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
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = process.argv.slice(2).flatMap((file) => checkHouseRules(JSON.parse(readFileSync(file, 'utf8'))).map((p) => `${file}: ${p}`));
  for (const p of problems) console.error(p);
  if (problems.length > 0) process.exit(1);
  console.log('house rules: no problems');
}
