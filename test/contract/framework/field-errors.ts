import { expect } from 'vitest';
import type { FieldError } from '../../../src/errors/field-errors.js';
import type { ObservedResponse } from '../../support/http.js';

interface InvalidBody {
  messages: string;
  data: { errors: FieldError[] } | null;
}

/** `query.range`, `body.events.0`, or `body` for the body as a whole: how `messages` names an input. */
const fieldName = (e: FieldError): string => (e.name === '' ? e.in : `${e.in}.${e.name}`);

/** The invalid inputs a 422 lists for programs. */
function fieldErrors(res: ObservedResponse): FieldError[] {
  return (res.body as InvalidBody).data?.errors ?? [];
}

/**
 * Every 422 names each invalid input twice, for people in `messages` and for programs in
 * `data.errors`: the two must list the same inputs, in the same order, with the same words.
 */
export function expectFieldErrorsMatchMessages(res: ObservedResponse): void {
  const { messages } = res.body as InvalidBody;
  const errors = fieldErrors(res);
  expect(errors.length, messages).toBeGreaterThan(0);
  const body = /^Invalid request body: (.*)\.$/.exec(messages);
  if (body) {
    expect(errors).toEqual([{ in: 'body', name: '', message: body[1] }]);
    return;
  }
  expect(messages).toBe(`Invalid parameters: ${errors.map((e) => `${fieldName(e)} ${e.message}`).join('; ')}.`);
}

/** A 422 that names, among its field errors, an input matching `pattern` (`/query\.range/`). */
export function expectFieldNamed(res: ObservedResponse, pattern: RegExp): void {
  expect((res.body as { code?: number }).code).toBe(4220);
  expect(fieldErrors(res).map(fieldName), (res.body as InvalidBody).messages).toContainEqual(expect.stringMatching(pattern));
}
