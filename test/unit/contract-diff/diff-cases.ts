import { readFileSync } from 'node:fs';
import type { Change } from '../../../scripts/contract-diff/schema-compat.mjs';

// What the diff tests of both documents share: each case starts from a base fixture and applies
// one edit, so the test shows exactly which contract change it is about.
export type Doc = Record<string, any>;

export const fixture = (name: string): Doc =>
  JSON.parse(readFileSync(new URL(`../../fixtures/contract-diff/${name}`, import.meta.url), 'utf8')) as Doc;

/** The changes `diff` finds between `base` and a copy of it with `edit` applied. */
export const diffAfterEdit = (base: Doc, diff: (before: Doc, after: Doc) => Change[]) => (edit: (doc: Doc) => void): Change[] => {
  const next = structuredClone(base);
  edit(next);
  return diff(base, next);
};

export const breaking = (changes: Change[]) => changes.filter((c) => c.breaking);
export const find = (changes: Change[], kind: string, id: string) => changes.find((c) => c.kind === kind && c.id === id);
