import { createHash } from 'node:crypto';

/**
 * Work that depends only on a contract document (a compiled validator, a loaded dispatcher) is done
 * once per document in a process and shared by every app built from it: a server builds one app,
 * the test suite thousands (test/README.md). Documents are told apart by their content, so a
 * changed copy of the contract gets its own; the `kept` most recently used are kept.
 */
export function perContract<T>(build: (document: object) => T, kept = 4): (document: object) => T {
  const built = new Map<string, T>();
  return (document) => {
    const key = fingerprintOf(document);
    let value = built.get(key);
    if (value === undefined) {
      value = build(document);
      if (built.size >= kept) built.delete(built.keys().next().value!);
    } else {
      built.delete(key);
    }
    // The least recently used is dropped first: a process that builds apps from one-off copies
    // keeps the contract it builds most of its apps from (compiling it again costs seconds).
    built.set(key, value);
    return value;
  };
}

/** A document's content hash, computed once per document object (a document is never changed once built on). */
const fingerprints = new WeakMap<object, string>();

function fingerprintOf(document: object): string {
  let fingerprint = fingerprints.get(document);
  if (fingerprint === undefined) {
    fingerprint = createHash('sha256').update(JSON.stringify(document)).digest('hex');
    fingerprints.set(document, fingerprint);
  }
  return fingerprint;
}
