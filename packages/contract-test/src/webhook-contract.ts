import type { IncomingHttpHeaders } from 'node:http';
import { quoted } from './terminal-text.js';
import { schemaValidatorFor, type SchemaValidator } from '@workspace-read-api/contract/schema-validator.js';

interface MessageObject { name?: string; contentType?: string; payload?: { $ref?: string }; headers?: { $ref?: string } }
interface AsyncApiDocument {
  info?: { title?: string; version?: string };
  defaultContentType?: string;
  operations?: Record<string, { action?: string; bindings?: { http?: { method?: string } }; messages?: Array<{ $ref?: string }> }>;
  components?: { messages?: Record<string, MessageObject>; schemas?: Record<string, { properties?: Record<string, unknown> }> };
}

/**
 * The webhook half of the contract (AsyncAPI): each delivery's body against the payload of the
 * message named like its `event`, its headers against the message's header schema, and the HTTP
 * method the operations' bindings name.
 */
export class WebhookContract {
  private readonly document: AsyncApiDocument;
  private readonly validator: SchemaValidator;
  private readonly messages: Map<string, MessageObject>;

  constructor(document: object) {
    this.document = document;
    this.validator = schemaValidatorFor(document);
    this.messages = new Map(Object.values(this.document.components?.messages ?? {})
      .filter((m) => m.name !== undefined).map((m) => [m.name!, m]));
  }

  get title(): string {
    return `${this.document.info?.title ?? 'webhooks'} ${this.document.info?.version ?? ''}`.trim();
  }

  get eventTypes(): string[] {
    return [...this.messages.keys()];
  }

  /** The methods the send operations' HTTP bindings name (POST when none does). */
  methods(): string[] {
    const named = Object.values(this.document.operations ?? {}).map((o) => o.bindings?.http?.method?.toUpperCase()).filter((m): m is string => m !== undefined);
    return named.length === 0 ? ['POST'] : [...new Set(named)];
  }

  /** Problems of one delivery's parsed body and headers against the message of its event. */
  problems(body: unknown, headers: IncomingHttpHeaders): string[] {
    const event = (body as { event?: unknown } | null)?.event;
    const message = typeof event === 'string' ? this.messages.get(event) : undefined;
    if (!message) return [`event ${JSON.stringify(event)} is not a message of the contract (${this.eventTypes.join(', ')})`];
    const problems: string[] = [];
    if (message.payload?.$ref) problems.push(...this.check(message.payload.$ref, body).map((p) => `body${p}`));
    if (message.headers?.$ref) {
      const schema = this.document.components?.schemas?.[message.headers.$ref.replace('#/components/schemas/', '')];
      const named: Record<string, unknown> = {};
      for (const name of Object.keys(schema?.properties ?? {})) {
        const value = headers[name.toLowerCase()];
        if (value !== undefined) named[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      problems.push(...this.check(message.headers.$ref, named).map((p) => `headers${p}`));
    }
    const contentType = (headers['content-type'] ?? '').split(';')[0]!.trim();
    const expected = message.contentType ?? this.document.defaultContentType;
    if (expected && contentType !== expected) problems.push(`content-type is ${contentType ? quoted(contentType) : '(none)'}, not ${expected}`);
    return problems;
  }

  private check(ref: string, value: unknown): string[] {
    return this.validator.problems(ref, value);
  }
}
