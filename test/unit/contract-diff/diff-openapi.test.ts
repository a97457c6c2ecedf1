import { describe, it, expect } from 'vitest';
import { diffOpenApi } from '../../../scripts/contract-diff/diff-openapi.mjs';
import { breaking, diffAfterEdit, find, fixture, type Doc } from './diff-cases.js';

// Each case starts from the base fixture and applies one edit, so the test
// shows exactly which contract change it is about.
const base = fixture('openapi.base.json');
const diffAfter = diffAfterEdit(base, diffOpenApi);

describe('diffOpenApi: identical documents', () => {
  it('reports nothing', () => {
    expect(diffOpenApi(base, structuredClone(base))).toEqual([]);
  });
});

describe('diffOpenApi: breaking operations and paths', () => {
  it('catches a removed operation by operationId', () => {
    const changes = diffAfter((d) => delete d.paths['/api/v1/items'].post);
    expect(find(changes, 'removed-operation', 'createItem')).toMatchObject({ breaking: true });
  });

  it('catches a renamed operationId', () => {
    const changes = diffAfter((d) => (d.paths['/api/v1/items/{itemId}'].get.operationId = 'fetchItem'));
    expect(find(changes, 'renamed-operation-id', 'getItem')).toMatchObject({ breaking: true });
  });

  it('catches a removed path, once for the whole path', () => {
    const changes = diffAfter((d) => delete d.paths['/api/v1/me']);
    expect(breaking(changes)).toEqual([
      expect.objectContaining({ kind: 'removed-path', id: '/api/v1/me', detail: expect.stringContaining('getMe') }),
    ]);
  });

  it('catches a removed path+method when the operation moved elsewhere', () => {
    const changes = diffAfter((d) => {
      d.paths['/api/v1/items/search'] = { get: d.paths['/api/v1/items'].get };
      delete d.paths['/api/v1/items'].get;
    });
    expect(find(changes, 'removed-path-method', 'GET /api/v1/items')).toMatchObject({
      breaking: true,
      detail: expect.stringContaining('GET /api/v1/items/search'),
    });
  });

  it('does not treat a renamed path parameter as a new URL', () => {
    const changes = diffAfter((d) => {
      const item = d.paths['/api/v1/items/{itemId}'];
      item.parameters[0].name = 'id';
      d.paths['/api/v1/items/{id}'] = item;
      delete d.paths['/api/v1/items/{itemId}'];
    });
    expect(breaking(changes)).toEqual([]);
  });
});

describe('diffOpenApi: breaking response changes', () => {
  it('catches a removed field behind $refs, per operation, with the component alias', () => {
    const changes = diffAfter((d) => {
      delete d.components.schemas.UserSummary.properties.email;
      d.components.schemas.UserSummary.required = ['id', 'name'];
    });
    const removed = changes.filter((c) => c.kind === 'removed-field');
    expect(removed.map((c) => c.id).sort()).toEqual([
      'createItem 201 application/json data.owner.email',
      'getItem 200 application/json data.owner.email',
      'getMe 200 application/json data.email',
      'listItems 200 application/json data[].owner.email',
    ]);
    expect(removed.every((c) => c.breaking && c.aliases?.includes('UserSummary.email'))).toBe(true);
  });

  it('catches a removed field inside a oneOf alternative', () => {
    const changes = diffAfter((d) => delete d.components.schemas.TextValue.properties.lang);
    expect(find(changes, 'removed-field', 'getItem 200 application/json data.value.lang')).toMatchObject({
      breaking: true,
      aliases: ['TextValue.lang'],
    });
  });

  it('catches a removed field in an error response reached through components/responses', () => {
    const changes = diffAfter((d) => {
      delete d.components.schemas.NotFoundEnvelope.properties.messages;
      d.components.schemas.NotFoundEnvelope.required = ['code', 'data'];
    });
    expect(find(changes, 'removed-field', 'getMe 404 application/json messages')).toMatchObject({ breaking: true });
  });

  it('catches a field that became optional', () => {
    const changes = diffAfter((d) => (d.components.schemas.Item.required = d.components.schemas.Item.required.filter((r: string) => r !== 'count')));
    expect(find(changes, 'field-became-optional', 'getItem 200 application/json data.count')?.breaking).toBe(true);
  });

  it('catches a removed enum value in a response', () => {
    const changes = diffAfter((d) => (d.components.schemas.ItemStatus.enum = ['active']));
    expect(find(changes, 'removed-enum-value', 'getItem 200 application/json data.status')).toMatchObject({
      breaking: true,
      detail: 'value "archived" removed',
    });
  });

  it('catches a changed const as a changed code value', () => {
    const changes = diffAfter((d) => (d.components.schemas.MeEnvelope.properties.code.const = 2001));
    expect(find(changes, 'changed-const', 'getMe 200 application/json code')).toMatchObject({
      breaking: true,
      detail: 'changed code value 2000 → 2001',
      aliases: ['MeEnvelope.code'],
    });
  });

  it('catches a response type changed to something that is not a subset (integer → string)', () => {
    const changes = diffAfter((d) => (d.components.schemas.Item.properties.count.type = 'string'));
    expect(find(changes, 'changed-type', 'getItem 200 application/json data.count')?.breaking).toBe(true);
  });

  it('catches a response that became nullable (string → [string, null])', () => {
    const changes = diffAfter((d) => (d.components.schemas.Item.properties.name.type = ['string', 'null']));
    expect(find(changes, 'became-nullable', 'getItem 200 application/json data.name')?.breaking).toBe(true);
  });

  it('catches a response that became nullable through anyOf [$ref, null]', () => {
    const changes = diffAfter((d) => {
      d.components.schemas.Item.properties.owner = { anyOf: [{ $ref: '#/components/schemas/UserSummary' }, { type: 'null' }] };
    });
    expect(breaking(changes).map((c) => [c.kind, c.id])).toEqual(
      expect.arrayContaining([['became-nullable', 'getItem 200 application/json data.owner']]),
    );
    // The object itself is unchanged: no spurious removed fields.
    expect(changes.some((c) => c.kind === 'removed-field')).toBe(false);
  });

  it('catches a changed format in a response', () => {
    const changes = diffAfter((d) => (d.components.schemas.Item.properties.created_at.format = 'date'));
    expect(find(changes, 'changed-format', 'getItem 200 application/json data.created_at')?.breaking).toBe(true);
  });

  it('catches a removed success status and a removed response header', () => {
    const changes = diffAfter((d) => {
      const ok = d.paths['/api/v1/me'].get.responses['200'];
      delete ok.headers;
      delete d.paths['/api/v1/items/{itemId}'].get.responses['200'];
      d.paths['/api/v1/items/{itemId}'].get.responses['203'] = ok;
    });
    expect(find(changes, 'removed-response-header', 'getMe 200 header X-Request-Id')?.breaking).toBe(true);
    expect(find(changes, 'removed-response-status', 'getItem 200')?.breaking).toBe(true);
  });
});

describe('diffOpenApi: breaking request changes', () => {
  it('catches a new required query parameter', () => {
    const changes = diffAfter((d) =>
      d.paths['/api/v1/items'].get.parameters.push({ name: 'workspace', in: 'query', required: true, schema: { type: 'string' } }),
    );
    expect(find(changes, 'new-required-parameter', 'listItems query workspace')?.breaking).toBe(true);
  });

  it('catches a new required header parameter', () => {
    const changes = diffAfter((d) =>
      (d.paths['/api/v1/me'].get.parameters = [{ name: 'X-Tenant', in: 'header', required: true, schema: { type: 'string' } }]),
    );
    expect(find(changes, 'new-required-parameter', 'getMe header X-Tenant')?.breaking).toBe(true);
  });

  it('catches a parameter that became required (through a components/parameters $ref)', () => {
    const changes = diffAfter((d) => (d.components.parameters.Limit.required = true));
    expect(find(changes, 'parameter-became-required', 'listItems query limit')?.breaking).toBe(true);
  });

  it('catches a removed enum value in a request parameter', () => {
    const changes = diffAfter((d) => (d.paths['/api/v1/items'].get.parameters[1].schema.enum = ['active']));
    expect(find(changes, 'removed-enum-value', 'listItems query status')?.breaking).toBe(true);
  });

  it('catches a tightened parameter limit', () => {
    const changes = diffAfter((d) => (d.components.parameters.Limit.schema.maximum = 50));
    expect(find(changes, 'tightened-constraint', 'listItems query limit')).toMatchObject({ breaking: true, detail: 'maximum 100 → 50' });
  });

  it('catches a new required field in a request body', () => {
    const changes = diffAfter((d) => {
      d.components.schemas.ItemInput.properties.folder = { type: 'string' };
      d.components.schemas.ItemInput.required.push('folder');
    });
    expect(find(changes, 'new-required-field', 'createItem request application/json folder')).toMatchObject({
      breaking: true,
      aliases: ['ItemInput.folder'],
    });
  });

  it('catches an optional request field that became required', () => {
    const changes = diffAfter((d) => d.components.schemas.ItemInput.required.push('kind'));
    expect(find(changes, 'new-required-field', 'createItem request application/json kind')?.breaking).toBe(true);
  });

  it('catches a removed enum value in a request body', () => {
    const changes = diffAfter((d) => (d.components.schemas.ItemInput.properties.kind.enum = ['note']));
    expect(find(changes, 'removed-enum-value', 'createItem request application/json kind')?.breaking).toBe(true);
  });

  it('catches a request type set that lost a member ([string, integer] → string)', () => {
    const changes = diffAfter((d) => (d.components.schemas.ItemInput.properties.priority.type = 'string'));
    expect(find(changes, 'narrowed-type', 'createItem request application/json priority')?.breaking).toBe(true);
  });

  it('catches added and tightened maxLength in a request', () => {
    const tightened = diffAfter((d) => (d.components.schemas.ItemInput.properties.name.maxLength = 100));
    expect(find(tightened, 'tightened-constraint', 'createItem request application/json name')?.breaking).toBe(true);
    const added = diffAfter((d) => (d.components.schemas.ItemInput.properties.notes.maxLength = 1000));
    expect(find(added, 'tightened-constraint', 'createItem request application/json notes')?.breaking).toBe(true);
  });

  it('catches a changed format in a request', () => {
    const changes = diffAfter((d) => (d.components.schemas.ItemInput.properties.due.format = 'date-time'));
    expect(find(changes, 'changed-format', 'createItem request application/json due')?.breaking).toBe(true);
  });

  it('catches a request field removed from a closed object', () => {
    const changes = diffAfter((d) => delete d.components.schemas.ItemInput.properties.notes);
    expect(find(changes, 'removed-request-field', 'createItem request application/json notes')?.breaking).toBe(true);
  });
});

describe('diffOpenApi: additive changes pass', () => {
  it('a new operation', () => {
    const changes = diffAfter((d) => (d.paths['/api/v1/tags'] = { get: { operationId: 'listTags', responses: { 200: { description: 'ok' } } } }));
    expect(breaking(changes)).toEqual([]);
    expect(find(changes, 'added-operation', 'listTags')).toBeDefined();
  });

  it('a new optional parameter', () => {
    const changes = diffAfter((d) => d.paths['/api/v1/items'].get.parameters.push({ name: 'cursor', in: 'query', schema: { type: 'string' } }));
    expect(breaking(changes)).toEqual([]);
    expect(find(changes, 'added-optional-parameter', 'listItems query cursor')).toBeDefined();
  });

  it('a new response field', () => {
    const changes = diffAfter((d) => (d.components.schemas.Item.properties.updated_at = { type: 'string', format: 'date-time' }));
    expect(breaking(changes)).toEqual([]);
    expect(find(changes, 'added-field', 'getItem 200 application/json data.updated_at')).toBeDefined();
  });

  it('a new optional request field', () => {
    const changes = diffAfter((d) => (d.components.schemas.ItemInput.properties.color = { type: 'string' }));
    expect(breaking(changes)).toEqual([]);
    expect(find(changes, 'added-optional-field', 'createItem request application/json color')).toBeDefined();
  });

  it('a new enum value in a response', () => {
    const changes = diffAfter((d) => d.components.schemas.ItemStatus.enum.push('deleted'));
    expect(breaking(changes)).toEqual([]);
    expect(find(changes, 'added-enum-value', 'getItem 200 application/json data.status')).toBeDefined();
  });

  it('a response type that lost null, and a request type that gained a member', () => {
    const changes = diffAfter((d) => {
      d.components.schemas.Item.properties.description.type = 'string';
      d.components.schemas.ItemInput.properties.priority.type = ['string', 'integer', 'null'];
    });
    expect(changes.length).toBeGreaterThan(0);
    expect(breaking(changes)).toEqual([]);
  });

  it('a loosened request limit and a new error status', () => {
    const changes = diffAfter((d) => {
      d.components.parameters.Limit.schema.maximum = 500;
      d.paths['/api/v1/me'].get.responses['429'] = { description: 'Slow down.' };
    });
    expect(breaking(changes)).toEqual([]);
  });

  it('the stored additive fixture', () => {
    const changes = diffOpenApi(base, fixture('openapi.additive.json'));
    expect(changes.length).toBeGreaterThanOrEqual(5);
    expect(breaking(changes)).toEqual([]);
  });
});

describe('diffOpenApi: recursive schemas', () => {
  it('terminates and still finds changes inside the recursion', () => {
    const tree = (doc: Doc) => {
      doc.components.schemas.Item.properties.children = { type: 'array', items: { $ref: '#/components/schemas/Item' } };
    };
    const before = structuredClone(base);
    tree(before);
    const after = structuredClone(before);
    delete after.components.schemas.Item.properties.count;
    after.components.schemas.Item.required = after.components.schemas.Item.required.filter((r: string) => r !== 'count');
    const changes = diffOpenApi(before, after);
    expect(find(changes, 'removed-field', 'getItem 200 application/json data.count')?.breaking).toBe(true);
  });
});

describe('diffOpenApi: a download described as a sequence of lines (NDJSON)', () => {
  const LINE = { type: 'object', required: ['id'], properties: { id: { type: 'string' }, name: { type: 'string' } } };
  const LINES = { type: 'string', contentMediaType: 'application/x-ndjson' };
  const withExport = (media: Doc): Doc => {
    const doc = structuredClone(base);
    doc.paths['/export.ndjson'] = { get: { operationId: 'exportItems', responses: { 200: { description: 'Lines.', content: { 'application/x-ndjson': media } } } } };
    return doc;
  };

  it('compares the line\'s schema when the body moves from one line\'s schema to a string with x-item-schema, and reports the move once', () => {
    const changes = diffOpenApi(withExport({ schema: LINE }), withExport({ schema: LINES, 'x-item-schema': LINE }));
    expect(changes).toEqual([expect.objectContaining({
      kind: 'changed-sequence-schema', id: 'exportItems 200 application/x-ndjson', breaking: true,
      detail: 'the body is described as a sequence of lines (x-item-schema), no longer as one line',
    })]);
  });

  it('catches a field removed from the line\'s schema, whether named by x-item-schema or OpenAPI 3.2\'s itemSchema', () => {
    const fewer = { ...LINE, properties: { id: { type: 'string' } } };
    for (const key of ['x-item-schema', 'itemSchema']) {
      const changes = diffOpenApi(withExport({ schema: LINES, [key]: LINE }), withExport({ schema: LINES, [key]: fewer }));
      expect(changes.map((c) => [c.kind, c.id, c.breaking])).toEqual([['removed-field', 'exportItems 200 application/x-ndjson name', true]]);
    }
  });
});
