import { expect } from 'vitest';
import type { ObservedResponse } from '../../support/http.js';

// Expected bodies shared by the content-map, content and brand-intelligence scenarios.

/** A 422 whose message names a parameter matching `pattern`. */
export const invalidNaming = (pattern: RegExp) => (res: ObservedResponse) => {
  expect(res.body).toMatchObject({ code: 4220, data: null, messages: expect.stringMatching(pattern) });
};

/** The 404 of an unknown id (and of another workspace's id): `<What> not found.` */
export const notFoundOf = (what: string) => (res: ObservedResponse) => {
  expect(res.body).toEqual({ code: 4040, messages: `${what} not found.`, data: null });
};

/** The success envelope of a one-page list. */
export const lastPage = (items: unknown[]) => ({ code: 2000, messages: 'OK', data: { items, next_cursor: null } });

/** The success envelope of one resource. */
export const success = (data: unknown) => ({ code: 2000, messages: 'OK', data });
