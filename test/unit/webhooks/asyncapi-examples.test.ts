import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { loadAsyncApiDocument } from '@workspace-read-api/contract/documents.js';

interface MessageExample { name: string; headers: Record<string, string>; payload: { event: string } }
interface Message { name: string; examples: MessageExample[] }

const doc = loadAsyncApiDocument() as { info: { description: string }; components: { messages: Record<string, Message> } };
// The document names the sample secret its examples are signed with, so receivers can test against them.
const sampleSecret = /`(whsec_[A-Za-z0-9+/=]+)`/.exec(doc.info.description)?.[1] ?? '';
const examples = Object.values(doc.components.messages).flatMap((m) => m.examples.map((e) => ({ message: m.name, ...e })));

describe('AsyncAPI message examples', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('when read, name a sample secret and give one example per event', () => {
    expect(sampleSecret).toMatch(/^whsec_/);
    expect(examples.map((e) => e.message).sort()).toEqual([
      'agent_task.status_updated',
      'content.status_updated',
      'iq.status_updated',
      'research_batch.status_updated',
      'sitemap_url.status_updated',
      'topic.status_updated',
    ]);
  });

  it.each(examples)('when $message is verified with standardwebhooks over its raw body, it passes', (example) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Number(example.headers['webhook-timestamp']) * 1000);
    const body = JSON.stringify(example.payload);
    expect(new Webhook(sampleSecret).verify(body, example.headers)).toEqual(example.payload);
    expect(() => new Webhook(sampleSecret).verify(body.replace('"is_test":false', '"is_test":true'), example.headers)).toThrow();
  });

  it.each(examples)('when $message is checked by recomputing X-Webhook-Signature, it matches', (example) => {
    const body = JSON.stringify(example.payload);
    const expected = `sha256=${createHmac('sha256', sampleSecret).update(body).digest('hex')}`;
    expect(example.headers['X-Webhook-Signature']).toBe(expected);
    expect(example.headers['X-Webhook-Event']).toBe(example.payload.event);
    expect(example.headers['X-Webhook-Delivery']).toBe(example.headers['webhook-id']);
  });
});
