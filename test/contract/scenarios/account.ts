import { expect } from 'vitest';
import { ALL_SCOPES } from '../../../src/keys/scopes.js';
import type { OperationScenario } from './types.js';

export const accountScenarios: OperationScenario[] = [
  {
    operationId: 'getMe',
    statuses: {
      200: () => ({ path: '/api/v1/me' }),
    },
    expect: {
      200: async (res, { store, workspace }) => {
        const owner = (await store.accounts.getUser(workspace.ownerId))!;
        const ws = (await store.accounts.getWorkspace(workspace.workspaceId))!;
        expect(res.body).toEqual({
          code: 4020,
          messages: 'OK',
          data: {
            key: {
              id: workspace.keyId,
              name: 'Test key',
              prefix: workspace.key.slice(0, 'wsk_live_'.length + 4),
              scopes: [...ALL_SCOPES],
              created_at: expect.any(String),
              expires_at: expect.any(String),
              // Read before this request is recorded: a fresh key has not been used yet.
              last_used_at: null,
            },
            workspace: { id: ws.id, name: ws.name },
            user: { id: owner.id, name: owner.name, email: owner.email },
          },
        });
      },
    },
  },
  {
    operationId: 'getWorkspace',
    statuses: {
      200: () => ({ path: '/api/v1/workspace' }),
    },
    expect: {
      200: async (res, { store, workspace }) => {
        const ws = (await store.accounts.getWorkspace(workspace.workspaceId))!;
        // The contract check already pins every field's shape; these are the account fields.
        expect(res.body).toMatchObject({
          code: 2000,
          messages: 'OK',
          data: { id: ws.id, name: ws.name, created_at: ws.created_at, subscription_status: 'active' },
        });
      },
    },
  },
];
