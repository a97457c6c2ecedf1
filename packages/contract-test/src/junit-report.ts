import { maskSecrets } from './curl-line.js';
import { requestUrl } from './http-exchange.js';
import { escapeControls } from './terminal-text.js';
import type { CaseResult, NotReached } from './run-context.js';

function xml(text: string): string {
  // Control characters escaped as the text report escapes them (XML 1.0 cannot carry most of C0,
  // and a reader may print the file); then the characters XML itself cannot carry.
  return escapeControls(text, { keepNewlines: true })
    .replace(/[\uFFFE\uFFFF]/g, '\uFFFD')
    .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

interface JUnitFailureDetail {
  title: string;
  problems: string[];
  /** What lets a reader reproduce it (a curl line, a delivery's id). */
  detail: string;
}

/** One test case of a JUnit suite: a check that ran (passed or failed) or one that could not run. */
export interface JUnitCase {
  suite: string;
  name: string;
  timeMs: number;
  failure?: JUnitFailureDetail | undefined;
  skipped?: string | undefined;
  /** What the case did, as `<system-out>`. */
  output?: string | undefined;
}

/**
 * JUnit XML as CI dashboards read it (Jenkins, GitLab, GitHub test reporters): one suite per
 * operation or event type, one test case per check, failures with their problems and the
 * request as a curl line, what could not run as skipped.
 */
export function junitXml(name: string, cases: readonly JUnitCase[], totalMs: number): string {
  const suites = new Map<string, JUnitCase[]>();
  for (const c of cases) suites.set(c.suite, [...(suites.get(c.suite) ?? []), c]);
  const count = (list: readonly JUnitCase[], what: 'failure' | 'skipped') => list.filter((c) => c[what] !== undefined).length;
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  out.push(`<testsuites name="${xml(name)}" tests="${cases.length}" failures="${count(cases, 'failure')}" errors="0" skipped="${count(cases, 'skipped')}" time="${seconds(totalMs)}">`);
  for (const [suite, list] of suites) {
    const time = list.reduce((sum, c) => sum + c.timeMs, 0);
    out.push(`  <testsuite name="${xml(suite)}" tests="${list.length}" failures="${count(list, 'failure')}" errors="0" skipped="${count(list, 'skipped')}" time="${seconds(time)}">`);
    for (const c of list) {
      const open = `    <testcase classname="${xml(suite)}" name="${xml(maskSecrets(c.name))}" time="${seconds(c.timeMs)}"`;
      const output = c.output ? [`      <system-out>${xml(maskSecrets(c.output))}</system-out>`] : [];
      if (c.failure) {
        const body = [...c.failure.problems, '', c.failure.detail].map(maskSecrets).join('\n');
        out.push(`${open}>`, `      <failure message="${xml(maskSecrets(c.failure.problems[0] ?? c.failure.title))}" type="contract">${xml(body)}</failure>`, ...output, '    </testcase>');
      } else if (c.skipped !== undefined) {
        out.push(`${open}>`, `      <skipped message="${xml(c.skipped)}"/>`, ...output, '    </testcase>');
      } else if (output.length > 0) {
        out.push(`${open}>`, ...output, '    </testcase>');
      } else {
        out.push(`${open}/>`);
      }
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}

/**
 * The cases of an API run: one test case per operation and kind of check (`ignored_auth`,
 * `conditional_request`, …), failed when any of its requests failed (each failing request with its
 * problems and curl line), skipped when none could run; each request it sent, in order, in its
 * output. An operation the run did not reach fails its `reached` case unless it was allowed.
 */
export function apiJUnitCases(baseUrl: string, run: { cases: readonly CaseResult[]; notReached: readonly NotReached[]; unreached: ReadonlyArray<{ operation_id: string; reason: string; allowed: boolean }> }, curlOf: (c: CaseResult) => string): JUnitCase[] {
  const origin = new URL(baseUrl);
  const target = (c: CaseResult) => {
    const url = new URL(requestUrl(baseUrl, c.request));
    return `${c.request.method} ${url.pathname.slice(origin.pathname.replace(/\/$/, '').length)}${url.search}`;
  };
  const groups = new Map<string, { suite: string; name: string; cases: CaseResult[]; skipped: string[] }>();
  const group = (suite: string, name: string) => {
    const key = `${suite}\u0000${name}`;
    if (!groups.has(key)) groups.set(key, { suite, name, cases: [], skipped: [] });
    return groups.get(key)!;
  };
  for (const c of run.cases) group(c.operationId, c.check).cases.push(c);
  for (const n of run.notReached) group(n.operationId, n.check ?? 'positive_data_acceptance').skipped.push(`${n.what}: ${n.reason}`);
  const out: JUnitCase[] = [];
  for (const g of groups.values()) {
    const failed = g.cases.filter((c) => c.problems.length > 0);
    out.push({
      suite: g.suite,
      name: g.name,
      timeMs: g.cases.reduce((sum, c) => sum + c.durationMs, 0),
      failure: failed.length > 0 ? {
        title: failed[0]!.title,
        problems: failed.flatMap((c) => c.problems.map((p) => `${c.title}: ${p}`)),
        detail: failed.map((c) => curlOf(c)).join('\n'),
      } : undefined,
      skipped: g.cases.length === 0 ? g.skipped.join('; ') : undefined,
      output: [...g.cases.map((c) => `${c.title}: ${target(c)} → ${c.status ?? 'no answer'}`), ...g.skipped.map((s) => `not run: ${s}`)].join('\n'),
    });
  }
  for (const u of run.unreached) {
    out.push({ suite: u.operation_id, name: 'reached', timeMs: 0, ...(u.allowed ? { skipped: u.reason } : { failure: { title: 'reached', problems: [`not reached: ${u.reason}`], detail: 'name it in --allow-unreached to accept it' } }) });
  }
  return out;
}
