import type { Change } from './schema-compat.mjs';

export function diffAsyncApi(oldDoc: Record<string, unknown>, newDoc: Record<string, unknown>): Change[];
