import { CHECKS } from './markers.js';
import { escapedStrings, quoted } from './terminal-text.js';
import { EVERY_CALL, exitCodeOf, failingUnreached, NO_EVENT, webhookExitCodeOf, type ContractTestReport, type WebhookTestReport } from './report.js';

function grouped<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(keyOf(item), [...(groups.get(keyOf(item)) ?? []), item]);
  return groups;
}

function names(list: readonly string[], most = 4): string {
  const unique = [...new Set(list)];
  return unique.length <= most ? unique.join(', ') : `${unique.slice(0, most).join(', ')} and ${unique.length - most} more`;
}

/**
 * The run for people: what was covered, what could not be, every failure with the request that
 * produced it. Every string of the report is escaped before it joins a line (terminal-text.ts), and
 * the version the server chose is shown quoted.
 */
export function summaryText(raw: ContractTestReport): string {
  const report = escapedStrings(raw);
  const lines: string[] = [];
  const served = raw.served_contract_version === null ? 'the server publishes no /openapi.json'
    : raw.served_contract_version === raw.contract.version ? 'the server publishes the same version'
      : `the server publishes ${quoted(raw.served_contract_version)}`;
  lines.push(`Contract test of ${report.base_url} against ${report.contract.title} ${report.contract.version} (${served}), seed ${report.seed}`);
  lines.push(`${report.requests} requests, ${report.checks} checks, ${report.failures.length} failed; waited ${(report.waited_ms / 1000).toFixed(1)} s for rate limits; ${(report.duration_ms / 1000).toFixed(1)} s in all`);

  lines.push('', 'Operations × statuses (✓ seen, · documented but not produced)');
  const idWidth = Math.max(...report.coverage.map((c) => c.operation_id.length));
  const pathWidth = Math.max(...report.coverage.map((c) => c.path.length));
  for (const c of report.coverage) {
    const statuses = c.documented.map((s) => `${s}${c.not_observed.some((n) => n.status === s) ? '·' : '✓'}`).join(' ');
    lines.push(`  ${c.operation_id.padEnd(idWidth)}  ${c.method.padEnd(6)} ${c.path.padEnd(pathWidth)}  ${statuses}`);
  }

  lines.push('', 'Checks × operations (✓ passed, ✗ failed, ~ left by the default plan or the budget, · not applicable or not run)');
  const kinds = CHECKS.map((kind, i) => ({ kind, column: String.fromCharCode(65 + i) }));
  for (const { kind, column } of kinds) lines.push(`  ${column} ${kind}`);
  const sign = { passed: '✓', failed: '✗', left: '~', none: '·' } as const;
  const width = Math.max(0, ...report.check_table.map((r) => r.operation_id.length));
  lines.push(`  ${''.padEnd(width)}  ${kinds.map((k) => k.column).join(' ')}`);
  for (const row of report.check_table) lines.push(`  ${row.operation_id.padEnd(width)}  ${kinds.map((k) => sign[row.checks[k.kind] ?? 'none']).join(' ')}`);

  // Operations the run could not reach at all are told once, under "Not reached".
  const unreached = new Set(report.not_reached.filter((n) => n.what === EVERY_CALL).map((n) => n.operation_id));
  const missing = report.coverage.filter((c) => !unreached.has(c.operation_id))
    .flatMap((c) => c.not_observed.map((n) => ({ ...n, operation: c.operation_id })));
  if (missing.length > 0) {
    lines.push('', 'Documented statuses not produced, and why');
    for (const [key, group] of grouped(missing, (m) => `${m.status}\u0000${m.why}`)) {
      const [statusCode, why] = key.split('\u0000');
      lines.push(`  ${statusCode} on ${group.length} operation${group.length === 1 ? '' : 's'} (${names(group.map((g) => g.operation))}): ${why}`);
    }
  }

  if (report.not_reached.length > 0) {
    lines.push('', 'Not reached');
    for (const [reason, group] of grouped(report.not_reached, (n) => n.reason)) {
      lines.push(`  ${reason}: ${group.length} check${group.length === 1 ? '' : 's'} of ${names(group.map((g) => g.operation_id), 6)}`);
    }
  }

  if (report.unreached_operations.length > 0) {
    lines.push('', 'Operations not reached (no 2xx, nor a documented absent state)');
    for (const u of report.unreached_operations) lines.push(`  ${u.operation_id}: ${u.reason}${u.allowed ? ' (allowed by --allow-unreached)' : ''}`);
  }

  if (report.failures.length > 0) {
    lines.push('', `Failures (${report.failures.length})`);
    for (const [i, f] of report.failures.entries()) {
      lines.push(`  ${i + 1}. ${f.operation_id}: ${f.title} → ${f.status ?? 'no answer'}`);
      for (const p of f.problems) lines.push(`     - ${p}`);
      lines.push(`     ${f.curl}`);
    }
  }

  const exit = exitCodeOf(report);
  const notReached = failingUnreached(report).length;
  const failed = [
    ...(report.failures.length > 0 ? [`${report.failures.length} check${report.failures.length === 1 ? '' : 's'} did not match the contract`] : []),
    ...(notReached > 0 ? [`${notReached} operation${notReached === 1 ? ' was' : 's were'} not reached (name them in --allow-unreached to accept it)`] : []),
  ];
  lines.push('', exit === 0 ? 'PASSED: every answer matched the contract.'
    : exit === 1 ? `FAILED: ${failed.join('; ')}.`
      : `INCOMPLETE: the budget of ${report.budget} requests ran out before the run covered everything (see "Not reached").`);
  return lines.join('\n');
}

/**
 * The webhook run for people: what arrived, what was refused and why, what could not be checked.
 * Every string is escaped before it joins a line; the event names and ids a sender chose are quoted.
 */
export function webhookSummaryText(raw: WebhookTestReport): string {
  const report = escapedStrings(raw);
  const lines = [`Webhook receiver on ${report.listen_url}${report.public_url ? ` (public URL ${report.public_url})` : ''}, checked against ${report.contract}`];
  lines.push(`${report.deliveries} deliveries: ${report.valid} valid, ${report.refused} refused; ${report.repeated_webhook_ids} webhook-id${report.repeated_webhook_ids === 1 ? '' : 's'} received more than once`);
  for (const [event, n] of Object.entries(raw.by_event)) lines.push(`  ${(event === NO_EVENT ? event : quoted(event)).padEnd(32)} ${n}`);
  if (raw.redelivery && report.redelivery) {
    lines.push(`Redelivery of ${quoted(raw.redelivery.delivery_id)}: ${report.redelivery.arrivals} arrivals, ${report.redelivery.stable ? 'same webhook-id and same bytes each time' : 'NOT stable'}`);
  }
  if (report.not_checked.length > 0) lines.push('', 'Not checked', ...report.not_checked.map((n) => `  ${n}`));
  if (report.failures.length > 0) {
    lines.push('', `Failures (${report.failures.length})`);
    for (const [i, f] of report.failures.entries()) {
      lines.push(`  ${i + 1}. ${f.what}`, ...f.problems.map((p) => `     - ${p}`));
      if (f.detail) lines.push(`     ${f.detail}`);
    }
  }
  lines.push('', webhookExitCodeOf(report) === 0 ? 'PASSED: every delivery matched the contract.' : `FAILED: ${report.failures.length} problem${report.failures.length === 1 ? '' : 's'}.`);
  return lines.join('\n');
}
