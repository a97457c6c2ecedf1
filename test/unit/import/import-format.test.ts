import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { DELETABLE_TYPES, DELETE_SCHEMA, IMPORT_RECORD_TYPES as recordTypes } from '../../../src/import-engine/import-record-types.js';
import { recordTypes as writers } from '../../../src/import-engine/records/index.js';
import { IMPORT_FORMAT_DIR, ROOT_SCHEMA, schemaValidator } from '../../../src/import/schemas.js';
import { loadOpenApiDocument } from '@workspace-read-api/contract/documents.js';
import type { ImportRecords } from '../../../generated/import-format.js';
import type { components } from '../../../generated/openapi.js';

interface Schema {
  $id: string;
  additionalProperties?: boolean;
  required?: string[];
  properties: Record<string, { const?: string; enum?: string[] }>;
  allOf?: { if: { properties: { type: { const: string } } }; then: { $ref: string } }[];
}

function read(file: string): Schema {
  return JSON.parse(readFileSync(path.join(IMPORT_FORMAT_DIR, file), 'utf8')) as Schema;
}

describe('the published import format', () => {
  const root = read(ROOT_SCHEMA);

  it('lists exactly the registered record types and the delete line, each selecting its own schema', () => {
    const types = recordTypes.map((t) => t.type);
    expect([...(root.properties.type?.enum ?? [])].sort()).toEqual([...types, 'delete'].sort());
    const branches = Object.fromEntries(root.allOf?.map((branch) => [branch.if.properties.type.const, branch.then.$ref]) ?? []);
    expect(branches).toEqual({ ...Object.fromEntries(recordTypes.map((t) => [t.type, t.schema])), delete: DELETE_SCHEMA });
    // The import has a writer for each of them (the same for every database), declared as the format declares it.
    // eslint-disable-next-line @typescript-eslint/unbound-method -- `open` is set aside, never called
    expect(writers.map(({ open: _open, ...declared }) => declared)).toEqual(recordTypes);
  });

  it('lets a delete line name exactly the record types that can be deleted', () => {
    const schema = read(DELETE_SCHEMA);
    expect(schema.properties.type).toEqual({ const: 'delete' });
    expect(schema.additionalProperties).toBe(false);
    expect([...(schema.properties.record_type?.enum ?? [])].sort()).toEqual([...DELETABLE_TYPES].sort());
    expect(DELETABLE_TYPES).not.toContain('workspace_profile');
    const validate = schemaValidator(ROOT_SCHEMA);
    expect(validate({ type: 'delete', record_type: 'article', id: '6f1c1e0e-8a43-4a39-9d43-0e7f3d1c2b11' })).toBe(true);
    expect(validate({ type: 'delete', record_type: 'workspace_plan', id: '6f1c1e0e-8a43-4a39-9d43-0e7f3d1c2b11' })).toBe(false);
  });

  it('has one schema file per record type, closed to unknown fields', () => {
    const files = readdirSync(path.join(IMPORT_FORMAT_DIR, 'records')).map((f) => `records/${f}`).sort();
    expect(recordTypes.map((t) => t.schema).sort()).toEqual(files);
    for (const type of recordTypes) {
      const schema = read(type.schema);
      expect(schema.properties.type).toEqual({ const: type.type });
      expect(schema.additionalProperties).toBe(false);
      for (const ref of type.references) expect(schema.properties).toHaveProperty(ref.field);
    }
  });

  it('the root accepts what a record schema accepts and rejects an unknown type', () => {
    const validate = schemaValidator(ROOT_SCHEMA);
    const category = { type: 'category', id: '6f1c1e0e-8a43-4a39-9d43-0e7f3d1c2b11', name: 'Pricing', color: '#4F46E5' };
    expect(validate(category)).toBe(true);
    expect(validate({ ...category, extra: 1 })).toBe(false);
    expect(validate({ ...category, type: 'brand' })).toBe(false);
  });
});

type Api = components['schemas'];
const API_ENUMS = 'api-enums.schema.json';

/** Every `enum` of a schema, with where it is (a JSON pointer). */
function* enumsIn(node: unknown, at = ''): Generator<{ at: string; values: unknown[] }> {
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) yield* enumsIn(item, `${at}/${i}`);
  } else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'enum' && Array.isArray(value)) yield { at, values: value };
      else yield* enumsIn(value, `${at}/${key}`);
    }
  }
}

const valueSet = (values: unknown[]): string => JSON.stringify(values.filter((v) => v !== null).map(String).sort());

describe('the import format and the API define each shared enum once', () => {
  const apiEnums = Object.entries((loadOpenApiDocument() as { components: { schemas: Record<string, { enum?: unknown[] }> } }).components.schemas)
    .filter(([, schema]) => Array.isArray(schema.enum))
    .map(([name, schema]) => ({ name, values: schema.enum! }));
  const files = [
    ...readdirSync(IMPORT_FORMAT_DIR).filter((f) => f.endsWith('.schema.json')),
    ...readdirSync(path.join(IMPORT_FORMAT_DIR, 'records')).map((f) => `records/${f}`),
  ];

  it('no record schema lists the values of an API enum itself: it refers to api-enums.schema.json', () => {
    const copies = files.filter((file) => file !== API_ENUMS).flatMap((file) => [...enumsIn(read(file))].flatMap(({ at, values }) => apiEnums
      .filter((api) => valueSet(api.values) === valueSet(values))
      .map((api) => `${file}#${at} copies ${api.name}`)));
    expect(copies).toEqual([]);
  });

  it('api-enums.schema.json holds the API enums as the OpenAPI components define them', () => {
    const shared = JSON.parse(readFileSync(path.join(IMPORT_FORMAT_DIR, API_ENUMS), 'utf8')) as { $defs: Record<string, { enum: unknown[] }> };
    const byName = new Map(apiEnums.map((api) => [api.name, api.values]));
    expect(Object.keys(shared.$defs).length).toBeGreaterThan(0);
    for (const [name, def] of Object.entries(shared.$defs)) expect(def.enum, name).toEqual(byName.get(name));
  });

  it('the generated record types take their statuses, stages, kinds and platforms from the API types', () => {
    // Checked by the compiler (`npm run typecheck`): a drift fails the type check of this file.
    expectTypeOf<ImportRecords['agent_task']['status']>().toEqualTypeOf<Api['AgentTaskStatus']>();
    expectTypeOf<ImportRecords['article']['status']>().toEqualTypeOf<Api['ArticleStatus']>();
    expectTypeOf<NonNullable<ImportRecords['article']['buyer_stage']>>().toEqualTypeOf<Api['BuyerStage']>();
    expectTypeOf<NonNullable<ImportRecords['idea']['buyer_stage']>>().toEqualTypeOf<Api['BuyerStage']>();
    expectTypeOf<NonNullable<ImportRecords['research_batch']['buyer_stage']>>().toEqualTypeOf<Api['BuyerStage']>();
    expectTypeOf<ImportRecords['iq_record']['kind']>().toEqualTypeOf<Api['IqRecordType']>();
    expectTypeOf<ImportRecords['iq_record']['stage']>().toEqualTypeOf<Api['IqStage']>();
    expectTypeOf<ImportRecords['page']['status']>().toEqualTypeOf<Api['PageStatus']>();
    expectTypeOf<ImportRecords['prompt']['status']>().toEqualTypeOf<Api['PromptStatus']>();
    expectTypeOf<ImportRecords['research_batch']['status']>().toEqualTypeOf<Api['ResearchBatchStatus']>();
    expectTypeOf<ImportRecords['site']['kind']>().toEqualTypeOf<Api['SitemapUrlType']>();
    expectTypeOf<ImportRecords['snapshot']['platform']>().toEqualTypeOf<Api['Platform']>();
    expectTypeOf<ImportRecords['topic']['stage']>().toEqualTypeOf<Api['TopicStage']>();
    expectTypeOf<ImportRecords['topic']['msv_badge']>().toEqualTypeOf<Api['TopicBadge']>();
    expectTypeOf<ImportRecords['topic']['kd_badge']>().toEqualTypeOf<Api['TopicBadge']>();
    expectTypeOf<ImportRecords['workspace_profile']['tracked_platforms'][number]>().toEqualTypeOf<Api['Platform']>();
    expectTypeOf<ImportRecords['workspace_profile']['collection_cadence']>().toEqualTypeOf<Api['CollectionCadence']>();
    // And at run time, the importer refuses a value the API does not have.
    const validate = schemaValidator('records/page.schema.json');
    const page = { type: 'page', id: '6f1c1e0e-8a43-4a39-9d43-0e7f3d1c2b11', url: 'https://example.com/', site_id: '6f1c1e0e-8a43-4a39-9d43-0e7f3d1c2b12', created_at: '2026-01-01T00:00:00Z' };
    expect(validate({ ...page, status: 'READY' })).toBe(true);
    expect(validate({ ...page, status: 'ARCHIVED' })).toBe(false);
  });
});
