// walks-operations: asks every operation of the contract (test/scaffold/ runs it after adding an endpoint)
import { describe, expect, it } from 'vitest';
import { loadOpenApiDocument } from '@workspace-read-api/contract/documents.js';
import { requestContract } from '@workspace-read-api/contract/request-contract.js';
import { nodeAt, referencesIn } from '@workspace-read-api/contract/json-pointer.js';

// The part of the contract the request validator is given (packages/contract/src/request-contract.ts): every
// request exactly as the contract writes it, and every component it refers to, without the answers.

type Json = Record<string, any>;
const document = loadOpenApiDocument() as Json;
const part = requestContract(document) as Json;

describe('the requests\' part of the contract', () => {
  it('keeps every path and operation with its parameters and body as written, each answered by one bare default', () => {
    expect(Object.keys(part.paths)).toEqual(Object.keys(document.paths));
    for (const [path, item] of Object.entries(document.paths as Json)) {
      for (const [key, value] of Object.entries(item as Json)) {
        if (typeof value !== 'object' || value === null || !('responses' in value)) {
          expect(part.paths[path][key], `${path} ${key}`).toEqual(value);
          continue;
        }
        const { responses: _answers, ...request } = value as Json;
        const { responses, ...kept } = part.paths[path][key] as Json;
        expect([kept, responses], `${key} ${path}`).toEqual([request, { default: { description: expect.any(String) } }]);
      }
    }
    expect(part.components.securitySchemes).toEqual(document.components.securitySchemes);
  });

  it('holds every component a request refers to, also through another component, the same as in the contract, and no other', () => {
    const refs = new Set(referencesIn(part));
    for (const ref of refs) expect(nodeAt(part, ref), ref).toEqual(nodeAt(document, ref));
    const kept = Object.entries(part.components as Json)
      .filter(([section]) => section !== 'securitySchemes')
      .flatMap(([section, entries]) => Object.keys(entries as Json).map((name) => `#/components/${section}/${name}`));
    expect(kept.sort()).toEqual([...refs].filter((ref) => ref.startsWith('#/components/')).sort());
    // Parameters and bodies refer to schemas, which come along.
    expect(kept.some((ref) => ref.startsWith('#/components/schemas/'))).toBe(true);
  });

  it('leaves the contract it is given unchanged, and is a fraction of its size', () => {
    const before = JSON.stringify(document);
    const again = requestContract(document);
    expect(JSON.stringify(document)).toBe(before);
    expect(JSON.stringify(again).length).toBeLessThan(before.length / 2);
  });
});
