import { createHash } from 'node:crypto';

/** A small seeded generator (mulberry32): the same seed gives the same stream on every machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * A name-based UUID (version 5 layout over SHA-1): the same namespace and name always give the
 * same id, and two namespaces (two demo workspaces) never share one, since ids are global.
 */
export function demoId(namespace: string, name: string): string {
  const b = createHash('sha1').update(namespace).update('\0').update(name).digest();
  b[6] = (b[6]! & 0x0f) | 0x50;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex', 0, 16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/**
 * A time-ordered id (UUID version 7 layout: the first 48 bits are the epoch milliseconds), the rest
 * from the same hash as demoId. Records created in time order then land at the end of every id
 * index instead of at random places, which makes large imports markedly cheaper.
 */
export function demoTimeId(namespace: string, name: string, ms: number): string {
  const h = demoId(namespace, name).replace(/-/g, '');
  const t = Math.max(0, Math.floor(ms)).toString(16).padStart(12, '0').slice(-12);
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-7${h.slice(13, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** Options every demo generator takes; areas read what they need. */
export interface DemoDataOptions {
  seed: number;
  /** How many visibility prompts. */
  prompts: number;
  /** How many UTC days of history, ending today. */
  days: number;
  /** Answers collected per prompt, platform and day. */
  answersPerDay: number;
  /** The last day of the data (its UTC day); defaults to now. Same seed and day, same data. */
  today?: Date;
  /** Mixed into every id, so the same demo can be imported into several workspaces. */
  idNamespace?: string;
}
