import { describe, expect, it } from 'vitest';
import { followRefs, keyOfSegment, nodeAt, pointerSegment, referencesIn } from '@workspace-read-api/contract/json-pointer.js';

const doc = {
  paths: { '/api/v1/me': { get: { responses: { 200: { $ref: '#/components/responses/Me' }, 404: { $ref: '#/components/responses/Gone' } } } } },
  components: {
    responses: { Me: { $ref: '#/components/responses/MeBody' }, MeBody: { description: 'the caller' } },
    schemas: { 'a~b': { type: 'string' } },
  },
  loop: { $ref: '#/loop' },
};

describe('JSON pointers', () => {
  it('writes and reads keys holding `/` and `~`', () => {
    expect(pointerSegment('/api/v1/me')).toBe('~1api~1v1~1me');
    expect(pointerSegment('a~b')).toBe('a~0b');
    for (const key of ['/api/v1/me', 'a~b', '~1', 'plain']) expect(keyOfSegment(pointerSegment(key))).toBe(key);
  });

  it('finds a node by its pointer, the whole document at `#`, and nothing where there is none', () => {
    expect(nodeAt(doc, `#/paths/${pointerSegment('/api/v1/me')}/get/responses/200`)).toEqual({ $ref: '#/components/responses/Me' });
    expect(nodeAt(doc, '#/components/schemas/a~0b')).toEqual({ type: 'string' });
    expect(nodeAt(doc, '#')).toBe(doc);
    expect(nodeAt(doc, '#/components/schemas/missing')).toBeUndefined();
    // Own properties only: a pointer never reaches into an object's prototype.
    expect(nodeAt(doc, '#/components/constructor')).toBeUndefined();
    expect(nodeAt(doc, '#/paths/__proto__')).toBeUndefined();
  });

  it('follows references to the node they lead to, with the pointer it was found at', () => {
    const start = doc.paths['/api/v1/me'].get.responses[200];
    expect(followRefs(doc, start, '#/start')).toEqual({ node: { description: 'the caller' }, pointer: '#/components/responses/MeBody' });
    expect(followRefs(doc, { description: 'x' }, '#/own')).toEqual({ node: { description: 'x' }, pointer: '#/own' });
    expect(followRefs(doc, doc.paths['/api/v1/me'].get.responses[404]).node).toBeUndefined();
    // A reference to itself stops after the hops allowed instead of looping.
    expect(followRefs(doc, doc.loop, '#/loop', 5)).toEqual({ node: doc.loop, pointer: '#/loop' });
  });

  it('lists every $ref string under a node, in document order, in arrays too, and no other value named $ref', () => {
    expect(referencesIn(doc)).toEqual(['#/components/responses/Me', '#/components/responses/Gone', '#/components/responses/MeBody', '#/loop']);
    expect(referencesIn([{ a: { $ref: '#/x' } }, { $ref: 7, b: [{ $ref: '#/y' }] }])).toEqual(['#/x', '#/y']);
    expect(referencesIn('#/not-a-ref')).toEqual([]);
  });
});
