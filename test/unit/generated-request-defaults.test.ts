import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// A request body property the contract gives a `default:` may be left out: the service fills it
// in (the handler types make it present, generated/operation-defaults.d.ts). The generated types a
// client compiles against must say so too, or every caller would have to send the default.
const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (file: string) => readFileSync(`${root}/${file}`, 'utf8');

interface Schema { properties?: Record<string, { default?: unknown }> }
const document = JSON.parse(read('generated/openapi.json')) as {
  paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: { $ref?: string } }> } }>>;
  components: { schemas: Record<string, Schema> };
};

/** Every request body schema's defaulted properties, as `[schema, property]`. */
const defaulted = Object.values(document.paths).flatMap((item) => Object.values(item)).flatMap((op) => {
  const ref = op.requestBody?.content?.['application/json']?.schema?.$ref;
  const name = ref?.replace('#/components/schemas/', '');
  const schema = name === undefined ? undefined : document.components.schemas[name];
  return Object.entries(schema?.properties ?? {}).filter(([, p]) => p.default !== undefined).map(([property]) => [name!, property] as const);
});

/** How a generated file declares one property of one component schema: `name?:` or `name:`. */
function declaration(source: string, schema: string, property: string): string | undefined {
  const block = new RegExp(`\\n {8}${schema}: \\{\\n([^]*?)\\n {8}\\};`).exec(source)?.[1];
  return block && new RegExp(`^ {12}(${property}\\??):`, 'm').exec(block)?.[1];
}

describe('generated request types and the contract\'s body defaults', () => {
  it('finds the defaulted request body properties', () => {
    expect(defaulted.length).toBeGreaterThan(0);
  });

  for (const file of ['generated/openapi.d.ts', 'clients/typescript/src/generated/openapi.ts']) {
    it(`${file} declares each of them optional`, () => {
      const source = read(file);
      expect(defaulted.map(([schema, property]) => [schema, declaration(source, schema, property)]))
        .toEqual(defaulted.map(([schema, property]) => [schema, `${property}?`]));
    });
  }
});
