import type { components } from '../../generated/openapi.js';

/** One invalid input of a request, as a 422's `data.errors` lists it (see FieldError in the contract). */
export type FieldError = components['schemas']['FieldError'];

/** `query.range must be …; body is required`: the same errors, for people. */
export function describeFieldErrors(errors: readonly FieldError[]): string {
  return errors.map((e) => `${e.name === '' ? e.in : `${e.in}.${e.name}`} ${e.message}`).join('; ');
}
