import { describe, expect, it } from 'vitest';
import { followLinks, LinkPool, pathValuesOf } from '@workspace-read-api/contract-test/contract-links.js';
import type { ObservedResponse, OutgoingRequest } from '@workspace-read-api/contract-test/http-exchange.js';
import { contract, op } from './bundled-contract.js';

const answer = (status: number, json: unknown): ObservedResponse => ({ status, headers: new Headers(), text: JSON.stringify(json), json, durationMs: 1 });
const get = (path: string): OutgoingRequest => ({ method: 'GET', path, query: [] });
const WORKSPACE = '0f8fad5b-d9cb-469f-a165-70867728950e';
const FIRST = '3fa85f64-5717-4562-b3fc-2c963f66afa6';

describe('the contract\'s links, followed over recorded answers', () => {
  it('links every list to its read by id, and the webhook and key writes in sequence', () => {
    const lists = contract.operations.filter((o) => o.method === 'GET'
      && contract.operations.some((r) => r.method === 'GET' && r.path.startsWith(`${o.path}/{`) && !r.path.slice(o.path.length + 1).includes('/')));
    const unlinked = lists.filter((l) => !l.links.some((link) => link.status === '200' && op(link.operationId).path.startsWith(`${l.path}/{`)));
    expect(unlinked.map((l) => l.operationId)).toEqual([]);
    expect(lists.length).toBe(16);
    const chain = ['createWebhook', 'getWebhook', 'updateWebhook', 'deleteWebhook'].map((id) => op(id).links.map((l) => l.operationId));
    expect(chain).toEqual([['getWebhook'], ['updateWebhook'], ['deleteWebhook'], ['getWebhook']]);
    expect(op('createApiKey').links.map((l) => [l.status, l.operationId])).toEqual([['201', 'revokeApiKey']]);
  });

  it('resolves a list\'s first item id for its read, and nothing from an empty list', () => {
    const page = answer(200, { code: 2000, messages: 'OK', data: { items: [{ id: FIRST }, { id: 'second' }], next_cursor: null } });
    expect(followLinks(op('listPrompts'), get('/api/v1/visibility/prompts'), page).get('getPromptAnalytics')).toEqual({ prompt: FIRST });
    const empty = answer(200, { code: 2000, messages: 'OK', data: { items: [], next_cursor: null } });
    expect(followLinks(op('listPrompts'), get('/api/v1/visibility/prompts'), empty).size).toBe(0);
    // A 4xx answer follows no link documented on the 200.
    expect(followLinks(op('listPrompts'), get('/api/v1/visibility/prompts'), answer(422, page.json)).size).toBe(0);
  });

  it('takes path values from the request and the body: a created webhook, then its deletion leads to a read of the same id', () => {
    const created = answer(201, { code: 2010, messages: 'Created', data: { webhook: { id: FIRST }, secret: 'whsec_x' } });
    const request = { method: 'POST', path: `/api/workspace/${WORKSPACE}/webhooks`, query: [] };
    expect(followLinks(op('createWebhook'), request, created).get('getWebhook')).toEqual({ workspace_id: WORKSPACE, webhook_id: FIRST });
    const deletion = { method: 'DELETE', path: `/api/workspace/${WORKSPACE}/webhooks/${FIRST}`, query: [] };
    expect(followLinks(op('deleteWebhook'), deletion, answer(200, { code: 2000, messages: 'OK', data: { id: FIRST, deleted: true } })).get('getWebhook'))
      .toEqual({ workspace_id: WORKSPACE, webhook_id: FIRST });
  });

  it('files the values each answer resolves for the link\'s target, once each', () => {
    const pool = new LinkPool(contract.linkTargets());
    expect(pool.isTarget('getPromptAnalytics')).toBe(true);
    expect(pool.isTarget('listPrompts')).toBe(false);
    for (const id of [FIRST, FIRST, 'b']) pool.file(op('listPrompts'), get('/api/v1/visibility/prompts'), answer(200, { data: { items: [{ id }] } }));
    expect(pool.valuesFor('getPromptAnalytics')).toEqual([{ prompt: FIRST }, { prompt: 'b' }]);
    expect(pathValuesOf('/api/workspace/{workspace_id}/webhooks/{webhook_id}', `/api/workspace/${WORKSPACE}/webhooks/x%20y`)).toEqual({ workspace_id: WORKSPACE, webhook_id: 'x y' });
  });
});
