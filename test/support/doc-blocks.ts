import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// The marks a shell block of the README and docs/ carries after its language (docs/README.md,
// "Runnable blocks"):
//   ```sh runnable                 run by test/docs/runnable-blocks.process.test.ts; must exit 0
//   ```sh runnable background=URL  started in the background, kept until the end of the run; the
//                                  next block starts once URL answers (any HTTP status)
//   ```sh no-run: REASON           not run here, for the reason given; listed in the test's log

/** The languages whose blocks are commands a reader types, and so must carry a mark. */
const SHELL_LANGUAGES = new Set(['sh', 'bash', 'shell', 'console']);

export interface DocBlock {
  /** Path relative to the checkout, e.g. `docs/operators.md`. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  language: string;
  code: string;
  mark:
    | { kind: 'runnable' }
    | { kind: 'background'; readyUrl: string }
    | { kind: 'no-run'; reason: string }
    | { kind: 'unmarked' };
}

function markOf(rest: string): DocBlock['mark'] {
  const noRun = /^no-run:\s*(\S.*)$/.exec(rest)?.[1];
  if (noRun !== undefined) return { kind: 'no-run', reason: noRun.trim() };
  if (rest === 'runnable') return { kind: 'runnable' };
  const readyUrl = /^runnable background=(\S+)$/.exec(rest)?.[1];
  if (readyUrl !== undefined) return { kind: 'background', readyUrl };
  return { kind: 'unmarked' };
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*(\S*)\s*(.*)$/;

/** Every fenced shell block of one Markdown file, in order, with its mark. */
export function shellBlocksOf(root: string, file: string): DocBlock[] {
  const blocks: DocBlock[] = [];
  let open: { line: number; indent: string; fence: string; language: string; rest: string; body: string[] } | undefined;
  readFileSync(path.join(root, file), 'utf8').split('\n').forEach((text, index) => {
    if (open === undefined) {
      const [, indent = '', fence = '', language = '', rest = ''] = FENCE.exec(text) ?? [];
      if (fence) open = { line: index + 1, indent, fence, language, rest: rest.trim(), body: [] };
      return;
    }
    // A fence closes on a line of the same character, at least as long, and nothing else.
    const trimmed = text.trim();
    if (trimmed.startsWith(open.fence) && /^[`~]+$/.test(trimmed)) {
      if (SHELL_LANGUAGES.has(open.language)) {
        blocks.push({ file, line: open.line, language: open.language, code: open.body.join('\n'), mark: markOf(open.rest) });
      }
      open = undefined;
      return;
    }
    open.body.push(text.startsWith(open.indent) ? text.slice(open.indent.length) : text);
  });
  return blocks;
}

/**
 * The documents in the order a newcomer reads them, which is the order their blocks run in: the
 * README, then data in, reading it, events, testing, running, changing; a guide not named here
 * comes after, by name.
 */
const GUIDE_ORDER = ['data-producers', 'client-teams', 'integrators', 'qa', 'operators', 'backend-developers'];

export function documentedFiles(root: string): string[] {
  const guides = readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md') && f !== 'README.md');
  const rank = (f: string) => {
    const at = GUIDE_ORDER.indexOf(f.replace(/\.md$/, ''));
    return at === -1 ? GUIDE_ORDER.length : at;
  };
  guides.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  return ['README.md', 'docs/README.md', ...guides.map((f) => `docs/${f}`)];
}
