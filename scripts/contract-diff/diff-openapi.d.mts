import type { Change } from './schema-compat.mjs';

export function diffOpenApi(oldDoc: Record<string, unknown>, newDoc: Record<string, unknown>): Change[];
export function dedupe(changes: Change[]): Change[];
