import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DELETABLE_TYPES, DELETE_SCHEMA, IMPORT_RECORD_TYPES as recordTypes } from '../../../src/store/import-record-types.js';
import { recordTypes as writers } from '../../../src/store/import/records/index.js';
import { IMPORT_FORMAT_DIR, ROOT_SCHEMA, schemaValidator } from '../../../src/import/schemas.js';

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
