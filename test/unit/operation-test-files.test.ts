import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HTTP_METHODS, loadOpenApiDocument } from '@workspace-read-api/contract/documents.js';

// A newcomer finds a handler's test by its operation id (test/README.md, "Where a test is"):
// test/integration/<area>/<the operation id in kebab case>.test.ts. Two kinds of operations share
// a file: an NDJSON download is tested with its CSV twin (exportAnswersNdjson in
// export-answers.test.ts), and operations one handler serves over a table of kinds are tested by
// one table-driven file that names each by its id (`operation: 'listPersonas'`, list-iq-records.test.ts).
const integration = new URL('../integration/', import.meta.url);
const kebab = (id: string) => id.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();

const testFiles = readdirSync(integration, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.test.ts'));
const byName = new Set(testFiles.map((f) => path.basename(f, '.test.ts')));
const tables = testFiles.map((f) => readFileSync(new URL(f, integration), 'utf8')).join('\n');
const named = (id: string) => tables.includes(`operation: '${id}'`);

function operationIds(): string[] {
  const paths = (loadOpenApiDocument() as { paths: Record<string, Record<string, { operationId?: string }>> }).paths;
  return Object.values(paths).flatMap((item) => HTTP_METHODS.flatMap((method) => item[method]?.operationId ?? []));
}

describe('the integration test of each operation', () => {
  it('is found by its operation id', () => {
    const ids = operationIds();
    expect(ids.length).toBeGreaterThan(60);
    const findable = (id: string) => byName.has(kebab(id)) || byName.has(kebab(id.replace(/Ndjson$/, ''))) || named(id);
    expect(ids.filter((id) => !findable(id))).toEqual([]);
  });
});
