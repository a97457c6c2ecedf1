import type { Response } from 'express';
import type { Code } from '../errors/codes.js';

/** Writes the `{code, messages, data}` envelope every response carries. */
export function sendEnvelope(res: Response, status: number, code: Code, messages: string, data: unknown = null): void {
  res.status(status).json({ code, messages, data });
}
