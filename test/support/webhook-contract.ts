import type { IncomingHttpHeaders } from 'node:http';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { loadAsyncApiDocument } from '@workspace-read-api/contract/documents.js';

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

interface AsyncApiDocument {
  components: {
    messages: Record<string, { name: string; payload: { $ref: string }; headers: { $ref: string } }>;
    schemas: Record<string, { properties?: Record<string, unknown> }>;
  };
}

const DOCUMENT_ID = 'https://contract.test/asyncapi.json';

/**
 * Checks webhook deliveries against the bundled AsyncAPI document (`generated/asyncapi.json`): the
 * body against the payload schema of the message named like its event, the headers against the
 * message's header schema (names compared case-insensitively, as HTTP does). Answers the problems
 * found; an empty list means the delivery matches the contract.
 */
export function createWebhookContract() {
  const document = loadAsyncApiDocument() as AsyncApiDocument;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv, { mode: 'full' });
  ajv.addSchema({ ...document, $id: DOCUMENT_ID });
  const messages = new Map(Object.values(document.components.messages).map((m) => [m.name, m]));
  const schemaName = (ref: string): string => ref.replace('#/components/schemas/', '');
  const check = (ref: string, value: unknown): string[] => {
    const validate = ajv.getSchema(`${DOCUMENT_ID}${ref}`);
    if (!validate) throw new Error(`the AsyncAPI document has no ${ref}`);
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`.trim());
  };
  return {
    eventTypes: [...messages.keys()],
    body(eventType: string, body: unknown): string[] {
      const message = messages.get(eventType);
      if (!message) return [`no message named ${eventType}`];
      return check(message.payload.$ref, body);
    },
    headers(eventType: string, headers: IncomingHttpHeaders): string[] {
      const message = messages.get(eventType);
      if (!message) return [`no message named ${eventType}`];
      const properties = Object.keys(document.components.schemas[schemaName(message.headers.$ref)]?.properties ?? {});
      const named: Record<string, unknown> = {};
      for (const name of properties) {
        const value = headers[name.toLowerCase()];
        if (value !== undefined) named[name] = value;
      }
      return check(message.headers.$ref, named);
    },
  };
}
