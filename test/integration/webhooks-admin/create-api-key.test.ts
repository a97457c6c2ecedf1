import { describe, expect, it } from 'vitest';
import { send } from '../../support/http.js';
import { useTestServer } from '../../support/test-server.js';
import { hashToken } from '../../../src/keys/secret-token.js';
import { adminWorld } from './helpers.js';
import type { FieldError } from '../../../src/errors/field-errors.js';

const server = useTestServer();

type Created = { data: { key: string; api_key: { id: string; created_at: string; expires_at: string } } };

describe('POST /api/workspace/{workspace_id}/api-keys', () => {
  it('when an owner creates a key, answers 201 with the key shown once; it reads as that owner', async () => {
    const { workspace, call } = await adminWorld(server);
    const response = await call({
      method: 'POST',
      path: '/api-keys',
      body: { name: ' Reporting dashboard ', scopes: ['content:read', 'visibility:read', 'content:read'], expires_at: '2099-01-01T00:00:00Z' },
    });
    expect(response.status).toBe(201);
    const { data } = response.body as Created;
    expect(response.body).toEqual({
      code: 2010,
      messages: 'Created. Store the key now: it is not shown again.',
      data: {
        key: expect.stringMatching(/^wsk_live_[0-9A-Za-z]{38}$/),
        api_key: {
          id: expect.any(String),
          name: 'Reporting dashboard',
          prefix: data.key.slice(0, 13),
          scopes: ['visibility:read', 'content:read'],
          created_by: workspace.ownerId,
          created_at: data.api_key.created_at,
          expires_at: '2099-01-01T00:00:00.000Z',
          revoked_at: null,
          last_used_at: null,
        },
      },
    });
    expect((await server.store.apiKeys.get(data.api_key.id))!.key_hash).toBe(hashToken(data.key));
    const me = await send(server.url, { path: '/api/v1/me', key: data.key });
    expect(me.status).toBe(200);
    expect((me.body as { data: { user: { id: string } } }).data.user.id).toBe(workspace.ownerId);
    expect((await call({ path: '/api-keys' })).text).not.toContain(data.key);
  });

  it('when scopes and expiry are left out, grants all five scopes for one year', async () => {
    const { call } = await adminWorld(server);
    const { data } = (await call({ method: 'POST', path: '/api-keys', body: { name: 'Default' } })).body as Created & { data: { api_key: { scopes: string[] } } };
    expect(data.api_key.scopes).toEqual(['workspace:read', 'visibility:read', 'contentmap:read', 'content:read', 'iq:read']);
    const days = (Date.parse(data.api_key.expires_at) - Date.parse(data.api_key.created_at)) / 86_400_000;
    expect(days).toBe(365);
  });

  it('when the body is invalid, answers 422 naming the fields', async () => {
    const { call } = await adminWorld(server);
    const scopes = 'workspace:read, visibility:read, contentmap:read, content:read, iq:read';
    const cases: Array<[unknown, string, FieldError]> = [
      [{ name: 'x', expires_at: '2001-01-01T00:00:00Z' }, 'Invalid parameters: body.expires_at must be in the future.',
        { in: 'body', name: 'expires_at', message: 'must be in the future' }],
      // The format check lets a tab between date and time through; no RFC 3339 date-time has one.
      [{ name: 'x', expires_at: '2030-01-15\t00:00:00Z' }, 'Invalid parameters: body.expires_at must be an RFC 3339 date-time, e.g. 2027-01-15T00:00:00Z.',
        { in: 'body', name: 'expires_at', message: 'must be an RFC 3339 date-time, e.g. 2027-01-15T00:00:00Z' }],
      [{ name: '  ' }, 'Invalid parameters: body.name must not be blank.', { in: 'body', name: 'name', message: 'must not be blank' }],
      // Whatever JavaScript's trim removes is whitespace to the pattern too (`\S`): no-break and ideographic spaces, a tab.
      [{ name: '\u00a0\u3000\t' }, 'Invalid parameters: body.name must not be blank.', { in: 'body', name: 'name', message: 'must not be blank' }],
      [{}, 'Invalid parameters: body.name is required.', { in: 'body', name: 'name', message: 'is required' }],
      [{ name: 'x', scopes: ['admin:write'] }, `Invalid parameters: body.scopes.0 must be equal to one of the allowed values: ${scopes}.`,
        { in: 'body', name: 'scopes.0', message: `must be equal to one of the allowed values: ${scopes}` }],
    ];
    for (const [body, messages, error] of cases) {
      const response = await call({ method: 'POST', path: '/api-keys', body });
      expect(response.status).toBe(422);
      expect(response.body).toEqual({ code: 4220, messages, data: { errors: [error] } });
    }
  });
});
