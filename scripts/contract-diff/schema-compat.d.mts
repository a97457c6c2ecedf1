// Types for schema-compat.mjs (the scripts are plain JS; the project has no allowJs).
export type Direction = 'response' | 'request';

export interface Change {
  /** Machine-readable kind, e.g. 'removed-field'. */
  kind: string;
  /** Identifier a CHANGELOG entry must mention to cover the change. */
  id: string;
  detail: string;
  breaking: boolean;
  /** Breaking, but accepted in a minor version (ACCEPTED_CHANGES in check-breaking-changes.mjs). */
  accepted?: boolean;
  /** Other identifiers that also cover the change, e.g. `UserSummary.email`. */
  aliases?: string[];
}

export interface CompareOptions {
  direction: Direction;
  oldDoc: Record<string, unknown>;
  newDoc: Record<string, unknown>;
  id: string;
}

export function resolveRef(doc: Record<string, unknown>, node: unknown): { node: any; ref: string | undefined };
export function compareSchemas(oldSchema: unknown, newSchema: unknown, options: CompareOptions): Change[];
