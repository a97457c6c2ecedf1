import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cursorParts, positionIn, type CursorField } from '../../../src/pagination/cursor.js';

// The bundled contract as it is served: its examples are what client teams copy and recognise.
const contract = JSON.parse(readFileSync(new URL('../../../generated/openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, unknown>>;
  components: { parameters: Record<string, unknown> };
};

// The sort keys each example's list writes into its cursors (src/pagination/, src/events/feeds.ts,
// src/visibility/cited-pages.ts): an example found elsewhere has no entry and fails below.
const FIELDS: Record<string, readonly CursorField[]> = {
  '#/components/parameters/Cursor': ['timestamp', 'text'],
  '#/components/parameters/EventFeedCursor': ['integer'],
  listPrompts: ['timestamp', 'text'],
  listCitedPages: ['day', 'integer', 'text'],
  listContentEvents: ['integer'],
  listContentMapEvents: ['integer'],
  listIqEvents: ['integer'],
};

interface CursorExample {
  where: string;
  owner: string;
  cursor: string;
}

/** Every string under `next_cursor`, and every example of a `cursor` parameter, below `node`. */
function examplesIn(node: unknown, where: string, owner: string, found: CursorExample[]): CursorExample[] {
  if (node === null || typeof node !== 'object') return found;
  const record = node as Record<string, unknown>;
  if (record['name'] === 'cursor' && record['in'] === 'query') {
    if (typeof record['example'] === 'string') found.push({ where: `${where}/example`, owner, cursor: record['example'] });
    for (const [name, example] of Object.entries((record['examples'] ?? {}) as Record<string, { value?: unknown }>)) {
      if (typeof example.value === 'string') found.push({ where: `${where}/examples/${name}`, owner, cursor: example.value });
    }
  }
  for (const [key, value] of Object.entries(record)) {
    if (key === 'next_cursor' && typeof value === 'string') found.push({ where: `${where}/${key}`, owner, cursor: value });
    else examplesIn(value, `${where}/${key}`, owner, found);
  }
  return found;
}

function everyCursorExample(): CursorExample[] {
  const found: CursorExample[] = [];
  for (const [name, parameter] of Object.entries(contract.components.parameters)) {
    examplesIn(parameter, `#/components/parameters/${name}`, `#/components/parameters/${name}`, found);
  }
  for (const [path, item] of Object.entries(contract.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const owner = (operation as { operationId?: string }).operationId ?? `${method} ${path}`;
      examplesIn(operation, `#/paths/${path}/${method}`, owner, found);
    }
  }
  return found;
}

describe('the cursor examples of the contract', () => {
  const examples = everyCursorExample();

  it('are found: both cursor parameters and the lists whose example has a next page', () => {
    expect(new Set(examples.map((e) => e.owner))).toEqual(new Set(Object.keys(FIELDS)));
  });

  it.each(examples.map((e) => [e.where, e] as const))('%s has the shape the service writes and reads', (_where, example) => {
    const fields = FIELDS[example.owner];
    expect(fields, `no sort keys known for ${example.owner}`).toBeDefined();
    const parts = cursorParts(example.cursor);
    expect(parts, `${example.cursor} is not payload "." 43-character HMAC-SHA256`).toBeDefined();
    expect(positionIn(parts!.payload, fields!), `${Buffer.from(parts!.payload, 'base64url').toString()} is not a position of ${fields!.join(', ')}`).toBeDefined();
  });
});
