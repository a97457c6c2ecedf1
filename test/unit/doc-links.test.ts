import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { documentedFiles } from '../support/doc-blocks.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Every link target of a Markdown file that is a path in the repository (no scheme, no bare anchor, not the service's own /paths). */
function repositoryLinks(file: string): Array<{ line: number; target: string }> {
  return readFileSync(path.join(ROOT, file), 'utf8').split('\n').flatMap((text, i) =>
    [...text.matchAll(/\]\(([^)\s]+)\)/g)]
      .map((m) => m[1]!.split('#')[0]!)
      .filter((target) => target !== '' && !/^([a-z]+:|\/)/.test(target))
      .map((target) => ({ line: i + 1, target })));
}

/** Paths of the repository named in code spans (`src/http/docs.ts`), written from the repository's root. */
const NAMED_PATH = /`((?:src|test|scripts|examples|bench|docs|openapi|asyncapi|import-format|contract|clients|deploy)\/[\w./-]*)`/g;

function namedPaths(file: string): Array<{ line: number; target: string }> {
  return readFileSync(path.join(ROOT, file), 'utf8').split('\n').flatMap((text, i) =>
    [...text.matchAll(NAMED_PATH)].map((m) => ({ line: i + 1, target: m[1]! })));
}

describe('the README and the guides', () => {
  it('link only to files and folders the repository holds', () => {
    const broken = documentedFiles(ROOT).flatMap((file) => repositoryLinks(file)
      .filter(({ target }) => !existsSync(path.join(ROOT, path.dirname(file), target)))
      .map(({ line, target }) => `${file}:${line} ${target}`));
    expect(broken).toEqual([]);
  });

  it('name only paths the repository holds', () => {
    const missing = documentedFiles(ROOT).flatMap((file) => namedPaths(file)
      .filter(({ target }) => !existsSync(path.join(ROOT, target)))
      .map(({ line, target }) => `${file}:${line} ${target}`));
    expect(missing).toEqual([]);
  });
});
