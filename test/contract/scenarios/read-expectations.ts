import { expect } from 'vitest';
import type { ObservedResponse } from '../../support/http.js';
import { expectFieldNamed } from '../framework/field-errors.js';

// Expected bodies shared by the content-map, content and brand-intelligence scenarios.

/** A 422 that names a parameter matching `pattern` (`/query\.stage/`). */
export const invalidNaming = (pattern: RegExp) => (res: ObservedResponse) => expectFieldNamed(res, pattern);

/** The 404 of an unknown id (and of another workspace's id): `<What> not found.` */
export const notFoundOf = (what: string) => (res: ObservedResponse) => {
  expect(res.body).toEqual({ code: 4040, messages: `${what} not found.`, data: null });
};

/** The success envelope of a one-page list. */
export const lastPage = (items: unknown[]) => ({ code: 2000, messages: 'OK', data: { items, next_cursor: null } });

/** The success envelope of one resource. */
export const success = (data: unknown) => ({ code: 2000, messages: 'OK', data });
