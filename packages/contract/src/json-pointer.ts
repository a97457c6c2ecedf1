// JSON pointers inside one document (RFC 6901), as the bundled contracts use them in `$ref`s
// (`#/components/schemas/Answer`, `#/paths/~1api~1v1~1me/get`).

/** One key written as a pointer segment: `~` as `~0`, `/` as `~1`. */
export function pointerSegment(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** A pointer segment read back as the key it names. */
export function keyOfSegment(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The node at a local pointer (`#/a/b`) of `root`, through own properties only; undefined when there is none. */
export function nodeAt(root: unknown, pointer: string): unknown {
  const path = pointer.replace(/^#\/?/, '');
  if (path === '') return root;
  let node = root;
  for (const segment of path.split('/')) {
    const key = keyOfSegment(segment);
    node = typeof node === 'object' && node !== null && Object.hasOwn(node, key) ? (node as Record<string, unknown>)[key] : undefined;
  }
  return node;
}

/**
 * Follows local `$ref`s (`#/...`) from `node` until a node that is not one, at most `maxHops`;
 * answers that node (undefined when a reference leads nowhere) and the pointer it was found at
 * (`pointer`, the node's own, when it was no reference).
 */
export function followRefs(root: unknown, node: unknown, pointer = '', maxHops = 20): { node: unknown; pointer: string } {
  let current = { node, pointer };
  for (let hops = 0; hops < maxHops; hops += 1) {
    const ref = typeof current.node === 'object' && current.node !== null ? (current.node as { $ref?: unknown }).$ref : undefined;
    if (typeof ref !== 'string' || !ref.startsWith('#/')) break;
    current = { node: nodeAt(root, ref), pointer: ref };
  }
  return current;
}

/** Every `$ref` string anywhere under `node`, in document order (repeats included). */
export function referencesIn(node: unknown, into: string[] = []): string[] {
  if (Array.isArray(node)) {
    for (const item of node) referencesIn(item, into);
  } else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') into.push(value);
      else referencesIn(value, into);
    }
  }
  return into;
}
