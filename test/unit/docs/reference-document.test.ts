import { describe, expect, it } from 'vitest';
import { buildReferenceDocument, listOperations, WEBHOOK_EVENTS_TAG } from '../../../src/docs/reference-document.js';
import { listWebhookEvents } from '../../../src/docs/webhooks-from-asyncapi.js';

const described = (description: string) => ({ type: 'string', description });

function openapi() {
  return {
    openapi: '3.1.0',
    info: { title: 'T', version: '1.0.0', description: 'The API.' },
    tags: [{ name: 'Key', description: 'k' }, { name: 'Admin', description: 'a' }],
    paths: {
      '/api/v1/me': { get: { operationId: 'getMe', summary: 'Describe the key', tags: ['Key'], responses: {} } },
      '/api/workspace/{workspace_id}/members': {
        parameters: [{ name: 'workspace_id', in: 'path' }],
        get: { operationId: 'listMembers', summary: 'List members', tags: ['Admin'], responses: {} },
      },
      '/healthz': { get: { operationId: 'health', summary: 'Health', tags: ['Ops'], responses: {} } },
    },
    components: {
      schemas: {
        Article: { type: 'object', description: 'An article.', properties: { id: described('Id.') } },
      },
    },
  };
}

function asyncapi() {
  return {
    asyncapi: '3.0.0',
    info: { title: 'Events', version: '1.0.0', description: 'Signed POST deliveries.' },
    defaultContentType: 'application/json',
    channels: {
      endpoint: {
        address: null,
        messages: {
          articleUpdated: { $ref: '#/components/messages/ArticleUpdated' },
          unsent: { $ref: '#/components/messages/Unsent' },
        },
      },
    },
    operations: {
      sendArticleUpdated: {
        action: 'send',
        channel: { $ref: '#/channels/endpoint' },
        messages: [{ $ref: '#/channels/endpoint/messages/articleUpdated' }],
      },
    },
    components: {
      schemas: {
        // Same name and same definition as the OpenAPI document's: shared, not duplicated.
        Article: { type: 'object', description: 'An article.', properties: { id: described('Id.') } },
        // Same name, different definition: renamed so neither document's meaning changes.
        Headers: { type: 'object', description: 'Delivery headers.', required: ['X-Sig'], properties: { 'X-Sig': described('The signature.') } },
        ArticleUpdatedEvent: {
          type: 'object',
          description: 'The event envelope.',
          properties: { data: { $ref: '#/components/schemas/Article' }, headers: { $ref: '#/components/schemas/Headers' } },
        },
      },
      messages: {
        ArticleUpdated: {
          name: 'article.updated',
          title: 'Article updated',
          summary: 'An article changes.',
          description: 'Sent on every change.',
          headers: { $ref: '#/components/schemas/Headers' },
          payload: { $ref: '#/components/schemas/ArticleUpdatedEvent' },
          examples: [{ name: 'published', summary: 'Published.', payload: { data: { id: 'a' } } }],
        },
        Unsent: { name: 'never.sent', payload: { $ref: '#/components/schemas/Article' } },
      },
    },
  };
}

describe('buildReferenceDocument', () => {
  it('when given both documents, adds each sent event as an OpenAPI webhook with its payload, headers and example', () => {
    const doc = buildReferenceDocument(openapi(), asyncapi()) as Record<string, any>;
    expect(Object.keys(doc.webhooks)).toEqual(['article.updated']);
    expect(doc.webhooks['article.updated']).toEqual({
      post: {
        operationId: 'webhook_article_updated',
        summary: 'article.updated',
        description: 'Article updated\n\nAn article changes.\n\nSent on every change.',
        tags: [WEBHOOK_EVENTS_TAG],
        security: [],
        parameters: [{ name: 'X-Sig', in: 'header', required: true, description: 'The signature.', schema: { type: 'string' } }],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { $ref: '#/components/schemas/ArticleUpdatedEvent' },
              example: { data: { id: 'a' } },
            },
          },
        },
        responses: {
          '2XX': { description: 'Any 2xx answer within 15 seconds acknowledges the delivery.' },
          default: { description: expect.stringContaining('retried') },
        },
      },
    });
  });

  it('when a schema name is shared, keeps one definition; when it clashes, renames the event side and its references', () => {
    const base = openapi();
    (base.components.schemas as Record<string, unknown>).Headers = { type: 'string', description: 'Something else.' };
    const doc = buildReferenceDocument(base, asyncapi()) as Record<string, any>;
    expect(doc.components.schemas.Article).toEqual(base.components.schemas.Article);
    expect(doc.components.schemas.Headers).toEqual({ type: 'string', description: 'Something else.' });
    expect(doc.components.schemas.WebhookHeaders.description).toBe('Delivery headers.');
    expect(doc.components.schemas.ArticleUpdatedEvent.properties.headers).toEqual({ $ref: '#/components/schemas/WebhookHeaders' });
  });

  it('groups the sidebar into the read API, the administration API, other service routes and the webhooks', () => {
    const doc = buildReferenceDocument(openapi(), asyncapi()) as Record<string, any>;
    expect(doc['x-tagGroups']).toEqual([
      { name: 'Read API', tags: ['Key'] },
      { name: 'Administration API', tags: ['Admin'] },
      { name: 'Service', tags: ['Ops'] },
      { name: 'Webhooks', tags: [WEBHOOK_EVENTS_TAG] },
    ]);
    expect(doc.tags.at(-1)).toEqual({ name: WEBHOOK_EVENTS_TAG, description: 'Signed POST deliveries.' });
    expect(doc.info.description).toMatch(/^The API\.\n\n\*\*This reference\.\*\*/);
    expect(doc.info.description).toContain('[`/asyncapi.json`](/asyncapi.json)');
  });

  it('puts the guide tags (x-traitTag: the rules kept out of info) first, in an Overview group', () => {
    const base = openapi();
    base.tags.unshift({ name: 'Authentication', description: 'Send a key.', 'x-traitTag': true } as { name: string; description: string });
    const doc = buildReferenceDocument(base) as Record<string, any>;
    expect(doc['x-tagGroups'][0]).toEqual({ name: 'Overview', tags: ['Authentication'] });
    expect(doc['x-tagGroups'].slice(1).flatMap((g: { tags: string[] }) => g.tags)).not.toContain('Authentication');
  });

  it('when there is no AsyncAPI document, renders the HTTP APIs alone and leaves the input untouched', () => {
    const input = openapi();
    const before = structuredClone(input);
    const doc = buildReferenceDocument(input) as Record<string, any>;
    expect(doc.webhooks).toBeUndefined();
    expect(doc['x-tagGroups'].map((g: { name: string }) => g.name)).toEqual(['Read API', 'Administration API', 'Service']);
    expect(doc.info.description).not.toContain('asyncapi.json');
    expect(input).toEqual(before);
    expect(listOperations(doc).map((o) => o.operationId)).toEqual(['getMe', 'listMembers', 'health']);
  });
});

describe('listWebhookEvents', () => {
  it('when no operation sends anything, lists every declared message instead', () => {
    const doc = asyncapi() as Record<string, any>;
    delete doc.operations;
    expect(listWebhookEvents(doc).map((e) => e.event)).toEqual(['article.updated', 'never.sent']);
  });

  it('unwraps a multi-format payload and keeps the named schema reference', () => {
    const doc = asyncapi() as Record<string, any>;
    doc.components.messages.ArticleUpdated.payload = {
      schemaFormat: 'application/schema+json;version=draft-07',
      schema: { $ref: '#/components/schemas/ArticleUpdatedEvent' },
    };
    expect(listWebhookEvents(doc)[0]!.payload).toEqual({ $ref: '#/components/schemas/ArticleUpdatedEvent' });
  });
});
