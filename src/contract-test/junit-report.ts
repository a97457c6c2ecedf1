import { maskSecrets } from './curl-line.js';
import { requestUrl } from './http-exchange.js';
import type { CaseResult, NotReached } from './run-context.js';

function xml(text: string): string {
  return text
    // Characters XML 1.0 cannot carry at all.
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '\uFFFD')
    .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

export interface JUnitFailureDetail {
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
      if (c.failure) {
        const body = [...c.failure.problems, '', c.failure.detail].map(maskSecrets).join('\n');
        out.push(`${open}>`, `      <failure message="${xml(maskSecrets(c.failure.problems[0] ?? c.failure.title))}" type="contract">${xml(body)}</failure>`, '    </testcase>');
      } else if (c.skipped !== undefined) {
        out.push(`${open}>`, `      <skipped message="${xml(c.skipped)}"/>`, '    </testcase>');
      } else {
        out.push(`${open}/>`);
      }
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}

/** The cases of an API run: each request a test case named by its method, path and query, and what it checks. */
export function apiJUnitCases(baseUrl: string, cases: readonly CaseResult[], notReached: readonly NotReached[], curlOf: (c: CaseResult) => string): JUnitCase[] {
  const origin = new URL(baseUrl);
  return [
    ...cases.map((c): JUnitCase => {
      const url = new URL(requestUrl(baseUrl, c.request));
      const target = `${url.pathname.slice(origin.pathname.replace(/\/$/, '').length)}${url.search}`;
      return {
        suite: c.operationId,
        name: `${c.title}: ${c.request.method} ${target}`,
        timeMs: c.durationMs,
        failure: c.problems.length > 0 ? { title: c.title, problems: c.problems, detail: curlOf(c) } : undefined,
      };
    }),
    ...notReached.map((n): JUnitCase => ({ suite: n.operationId, name: `not reached: ${n.what}`, timeMs: 0, skipped: n.reason })),
  ];
}
