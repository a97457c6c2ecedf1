import type { OperationCoverage } from './coverage.js';

import { BUDGET_SPENT, EVERY_CALL, READ_METHODS } from './markers.js';

export { BUDGET_SPENT, EVERY_CALL, READ_METHODS };

export interface FailureReport {
  operation_id: string;
  title: string;
  status: number | null;
  problems: string[];
  curl: string;
}

/** What the command prints with --json; the human summary and the JUnit file render the same run. */
export interface ContractTestReport {
  base_url: string;
  contract: { title: string; version: string };
  /** `info.version` of the server's own /openapi.json; null when it serves none. */
  served_contract_version: string | null;
  seed: number;
  requests: number;
  waited_ms: number;
  duration_ms: number;
  budget: number | null;
  budget_spent: boolean;
  checks: number;
  failures: FailureReport[];
  coverage: OperationCoverage[];
  not_reached: Array<{ operation_id: string; what: string; reason: string }>;
  /**
   * Operations no request reached (no 2xx, nor the state `x-absent-state` names), with why;
   * `allowed` when `--allow-unreached` names them.
   */
  unreached_operations: Array<{ operation_id: string; reason: string; allowed: boolean }>;
  /** Per operation, per kind of check (`CHECKS`): `passed`, `failed`, `left` (by the plan or the budget) or `none` (does not apply, or could not run). */
  check_table: Array<{ operation_id: string; checks: Record<string, 'passed' | 'failed' | 'left' | 'none'> }>;
}

/** Unreached operations that fail a completed run: those `--allow-unreached` does not name. */
export function failingUnreached(report: Pick<ContractTestReport, 'unreached_operations'>): ContractTestReport['unreached_operations'] {
  return report.unreached_operations.filter((u) => !u.allowed);
}

/**
 * 0 when nothing failed and every operation was reached; 1 when something failed, or when the run
 * completed without reaching an operation `--allow-unreached` does not name; 2 when nothing failed
 * but the budget ran out first (what it left is listed).
 */
export function exitCodeOf(report: Pick<ContractTestReport, 'failures' | 'budget_spent' | 'unreached_operations'>): number {
  if (report.failures.length > 0) return 1;
  if (report.budget_spent) return 2;
  return failingUnreached(report).length > 0 ? 1 : 0;
}


/** The `by_event` entry of deliveries whose body names no event. */
export const NO_EVENT = '(none)';

/** What `contract-test webhooks` prints with --json. */
export interface WebhookTestReport {
  listen_url: string;
  public_url: string | null;
  contract: string;
  deliveries: number;
  valid: number;
  refused: number;
  by_event: Record<string, number>;
  /** `webhook-id`s that arrived more than once (retries, redeliveries). */
  repeated_webhook_ids: number;
  redelivery: { delivery_id: string; arrivals: number; stable: boolean } | null;
  duration_ms: number;
  failures: Array<{ what: string; problems: string[]; detail: string }>;
  not_checked: string[];
}

/** 0 only when every delivery matched the contract and everything the run expected arrived. */
export function webhookExitCodeOf(report: Pick<WebhookTestReport, 'failures'>): number {
  return report.failures.length > 0 ? 1 : 0;
}
