import { Codes } from '../errors/codes.js';

/** The success envelope with the generic read code. */
export function ok<T>(data: T): { status: 200; body: { code: typeof Codes.OK; messages: string; data: T } } {
  return { status: 200, body: { code: Codes.OK, messages: 'OK', data } };
}

/** Administration API: something was created (secrets in it are shown this once). */
export function created<T>(data: T, messages: string): { status: 201; body: { code: typeof Codes.CREATED; messages: string; data: T } } {
  return { status: 201, body: { code: Codes.CREATED, messages, data } };
}

/** Administration API: work was queued and runs in the background. */
export function accepted<T>(data: T, messages: string): { status: 202; body: { code: typeof Codes.ACCEPTED; messages: string; data: T } } {
  return { status: 202, body: { code: Codes.ACCEPTED, messages, data } };
}

/** Administration API: something was deleted or someone removed. */
export function deleted<T>(data: T, messages: string): { status: 200; body: { code: typeof Codes.DELETED; messages: string; data: T } } {
  return { status: 200, body: { code: Codes.DELETED, messages, data } };
}

/** The generic success code with a message of its own. */
export function okWith<T>(data: T, messages: string): { status: 200; body: { code: typeof Codes.OK; messages: string; data: T } } {
  return { status: 200, body: { code: Codes.OK, messages, data } };
}
