import { Codes } from '../http/codes.js';

/** The success envelope with the generic read code. */
export function ok<T>(data: T): { status: 200; body: { code: typeof Codes.OK; messages: string; data: T } } {
  return { status: 200, body: { code: Codes.OK, messages: 'OK', data } };
}
