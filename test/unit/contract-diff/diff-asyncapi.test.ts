import { describe, it, expect } from 'vitest';
import { diffAsyncApi } from '../../../scripts/contract-diff/diff-asyncapi.mjs';
import { breaking, diffAfterEdit, find, fixture } from './diff-cases.js';

const base = fixture('asyncapi.base.json');
const diffAfter = diffAfterEdit(base, diffAsyncApi);

describe('diffAsyncApi: breaking changes', () => {
  it('reports nothing for identical documents', () => {
    expect(diffAsyncApi(base, structuredClone(base))).toEqual([]);
  });

  it('catches a removed channel', () => {
    const changes = diffAfter((d) => delete d.channels.keyEvents);
    expect(find(changes, 'removed-channel', 'keyEvents')?.breaking).toBe(true);
  });

  it('catches a changed channel address', () => {
    const changes = diffAfter((d) => (d.channels.keyEvents.address = '/hooks/keys'));
    expect(find(changes, 'changed-channel-address', 'keyEvents')?.breaking).toBe(true);
  });

  it('catches a removed operation', () => {
    const changes = diffAfter((d) => delete d.operations.sendItemDeleted);
    expect(find(changes, 'removed-operation', 'sendItemDeleted')?.breaking).toBe(true);
  });

  it('catches a removed message', () => {
    const changes = diffAfter((d) => delete d.channels.workspaceEvents.messages.itemDeleted);
    expect(find(changes, 'removed-message', 'workspaceEvents itemDeleted')?.breaking).toBe(true);
  });

  it('catches a removed payload field behind $refs', () => {
    const changes = diffAfter((d) => {
      delete d.components.schemas.ItemRef.properties.status;
      d.components.schemas.ItemRef.required = ['id'];
    });
    expect(find(changes, 'removed-field', 'workspaceEvents itemUpdated payload data.status')).toMatchObject({
      breaking: true,
      aliases: ['ItemRef.status'],
    });
  });

  it('catches a removed payload field inside a multi-format payload', () => {
    const changes = diffAfter((d) => {
      delete d.components.schemas.ItemDeletedPayload.properties.data.properties.id;
      d.components.schemas.ItemDeletedPayload.properties.data.required = [];
    });
    expect(find(changes, 'removed-field', 'workspaceEvents itemDeleted payload data.id')?.breaking).toBe(true);
  });

  it('catches a changed const (event type) and a removed enum value in a payload', () => {
    const changes = diffAfter((d) => {
      d.components.schemas.ItemUpdatedPayload.properties.type.const = 'item.changed';
      d.components.schemas.ItemRef.properties.status.enum = ['active'];
    });
    expect(find(changes, 'changed-const', 'workspaceEvents itemUpdated payload type')?.breaking).toBe(true);
    expect(find(changes, 'removed-enum-value', 'workspaceEvents itemUpdated payload data.status')?.breaking).toBe(true);
  });

  it('catches a payload type change and a payload that became nullable', () => {
    const changes = diffAfter((d) => {
      d.components.schemas.ItemRef.properties.revision.type = 'string';
      d.components.messages.KeyRevoked.payload.properties.key_id.type = ['string', 'null'];
    });
    expect(find(changes, 'changed-type', 'workspaceEvents itemUpdated payload data.revision')?.breaking).toBe(true);
    expect(find(changes, 'became-nullable', 'keyEvents keyRevoked payload key_id')?.breaking).toBe(true);
  });

  it('catches a removed message header', () => {
    const changes = diffAfter((d) => delete d.components.schemas.WebhookHeaders.properties['webhook-timestamp']);
    expect(find(changes, 'removed-field', 'workspaceEvents itemUpdated headers webhook-timestamp')?.breaking).toBe(true);
  });

  it('finds the breaks of the stored breaking fixture', () => {
    const changes = diffAsyncApi(base, fixture('asyncapi.breaking.json'));
    expect(breaking(changes).map((c) => `${c.kind} ${c.id}`).sort()).toEqual([
      'removed-channel keyEvents',
      'removed-field workspaceEvents itemUpdated payload data.revision',
      'removed-operation sendKeyRevoked',
    ]);
  });
});

describe('diffAsyncApi: additive changes pass', () => {
  it('a new event (message + operation)', () => {
    const changes = diffAsyncApi(base, fixture('asyncapi.additive.json'));
    expect(breaking(changes)).toEqual([]);
    expect(find(changes, 'added-message', 'workspaceEvents itemCreated')).toBeDefined();
    expect(find(changes, 'added-operation', 'sendItemCreated')).toBeDefined();
  });

  it('a new channel, a new payload field and a new enum value', () => {
    const changes = diffAfter((d) => {
      d.channels.brandEvents = { address: '/webhooks/brand', messages: {} };
      d.components.schemas.ItemRef.properties.title = { type: 'string' };
      d.components.schemas.ItemRef.properties.status.enum.push('deleted');
    });
    expect(breaking(changes)).toEqual([]);
    expect(changes.map((c) => c.kind).sort()).toEqual(['added-channel', 'added-enum-value', 'added-field']);
  });
});
