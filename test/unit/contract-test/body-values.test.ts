import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadOpenApiDocument } from '@workspace-read-api/contract/documents.js';
import { bodyModel, invalidBody } from '@workspace-read-api/contract-test/body-values.js';
import { OpenApiContract } from '@workspace-read-api/contract-test/openapi-contract.js';

const contract = new OpenApiContract(loadOpenApiDocument());
const context = { url: 'https://example.com/workspace-api-contract-test', unknownProperty: 'zz_unknown_1', now: new Date() };
/** Every operation of the contract with a JSON request body, and the model the checker draws from. */
const bodies = contract.operations.filter((op) => op.requestBody?.schemaPointer !== undefined)
  .map((op) => ({ op, model: bodyModel(contract, op.requestBody!.schemaPointer!, context)! }));

describe('request bodies drawn from the contract\'s request schemas', () => {
  it('makes a model for every write that takes a JSON body', () => {
    expect(bodies.map((b) => b.op.operationId).sort()).toEqual(['createApiKey', 'createWebhook', 'recoverWebhookDeliveries', 'rotateWebhookSecret',
      'testWebhook', 'updateApiKey', 'updateMember', 'updateWebhook']);
    for (const { op, model } of bodies) expect(model, op.operationId).toBeDefined();
  });

  it('valid bodies, edges and draws, all fit the schema; the edges reach every enumeration value and both bounds', () => {
    for (const { op, model } of bodies) {
      for (const body of [...model.edges, ...fc.sample(model.valid, { numRuns: 40, seed: 1 })]) {
        expect(contract.requestBodyProblems(op, body), `${op.operationId} ${JSON.stringify(body)}`).toEqual([]);
      }
    }
    const edges = (id: string) => bodies.find((b) => b.op.operationId === id)!.model.edges;
    expect(edges('testWebhook').map((b) => b.event).sort()).toEqual([...contract.enumOf('EventType')].sort());
    expect(edges('rotateWebhookSecret')).toEqual([{ grace_period_seconds: 0 }, { grace_period_seconds: 604800 }]);
    expect(new Set(edges('createWebhook').flatMap((b) => b.events as string[]))).toEqual(new Set(contract.enumOf('EventType')));
    expect(edges('createWebhook').map((b) => (b.url as string).length)).toContain(2048);
    expect(edges('createApiKey').map((b) => (b.name as string).length).sort((a, b) => a - b)).toEqual([1, 100]);
    expect(edges('createApiKey').map((b) => (b.scopes as string[]).length).sort()).toEqual([0, 5]);
    expect(edges('updateMember').map((b) => [b.role, b.revoke_keys])).toEqual([['owner', true], ['member', false]]);
  });

  it('invalid bodies, every kind and draws, each fail the schema on the field they name', () => {
    for (const { op, model } of bodies) {
      for (const draw of [...model.everyInvalid, ...fc.sample(model.invalid!, { numRuns: 40, seed: 1 })]) {
        const { body, field } = invalidBody(draw);
        const problems = contract.requestBodyProblems(op, body);
        expect(problems.length, `${op.operationId} ${JSON.stringify(body)}`).toBeGreaterThan(0);
        if (field !== '') expect(problems.join(' '), `${op.operationId} ${JSON.stringify(body)}`).toContain(field);
      }
    }
    const kinds = (id: string) => bodies.find((b) => b.op.operationId === id)!.model.everyInvalid.map((d) => invalidBody(d)).map((b) => `${b.field}: ${b.kind}`);
    expect(kinds('createApiKey')).toEqual(expect.arrayContaining(['name: longer than 100', 'name: shorter than 1', 'name: not a string', 'name: missing',
      'scopes: more than 5 items', 'scopes: an item not one of the enumeration', 'expires_at: not a date-time', 'zz_unknown_1: not a documented property']));
    expect(kinds('updateApiKey')).toEqual(expect.arrayContaining([': no field at all', 'scopes: an item twice', 'scopes: fewer than 1 items']));
    // The schemas state the service's refusals of a blank name and of an update that sends nothing.
    for (const id of ['createApiKey', 'updateApiKey', 'createWebhook', 'updateWebhook']) {
      expect(kinds(id), id).toContain('name: whitespace alone (pattern \\S)');
    }
    expect(kinds('updateWebhook')).toContain(': no field at all');
  });

  it('draws from the schema alone: a body of no field where nothing asks for one, never where minProperties does', () => {
    const optional = { type: 'object', properties: { flag: { type: 'boolean' } } };
    const own = new OpenApiContract({ openapi: '3.1.0', info: { title: 'T', version: '1.0.0' }, paths: {},
      components: { schemas: { Optional: optional, AtLeastOne: { ...optional, minProperties: 1 } } } });
    const draws = (name: string) => fc.sample(bodyModel(own, `#/components/schemas/${name}`, context)!.valid, { numRuns: 200, seed: 2 });
    expect(draws('Optional')).toContainEqual({});
    expect(draws('AtLeastOne')).not.toContainEqual({});
    expect(bodyModel(own, '#/components/schemas/AtLeastOne', context)!.edges).toEqual([{ flag: true }, { flag: false }]);
    const testWebhook = bodies.find((b) => b.op.operationId === 'testWebhook')!.model.valid;
    expect(fc.sample(testWebhook, { numRuns: 200, seed: 2 })).toContainEqual({});
  });
});
