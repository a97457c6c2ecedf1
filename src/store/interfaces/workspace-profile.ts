import type { components } from '../../../generated/openapi.js';
import type { Platform } from './visibility-rows.js';

type CollectionCadence = components['schemas']['CollectionCadence'];

export interface WorkspaceProfile {
  id: string;
  workspace_id: string;
  brand_name: string;
  domains: string[];
  tracked_platforms: Platform[];
  collection_cadence: CollectionCadence;
}

export interface WorkspacePlanRow {
  id: string;
  workspace_id: string;
  name: string;
  tracked_prompts_limit: number | null;
  articles_per_month_limit: number | null;
  /** `YYYY-MM-DD`, included. */
  period_start: string;
  /** `YYYY-MM-DD`, included. */
  period_end: string;
}

/** One batch of request counts: `[workspace id, epoch day, requests]`. */
export type ApiRequestCount = readonly [string, number, number];

/** The brand profile, the plan and the API request counters of a workspace. */
export interface WorkspaceProfileStore {
  getProfile(workspaceId: string): Promise<WorkspaceProfile | undefined>;
  upsertProfile(profile: WorkspaceProfile): Promise<void>;
  getPlan(workspaceId: string): Promise<WorkspacePlanRow | undefined>;
  upsertPlan(plan: WorkspacePlanRow): Promise<void>;
  /**
   * Adds a batch of request counts in one write, for a writer in the background: it never waits
   * for a lock another writer holds, and rejects with DatabaseBusyError (`../errors.ts`) at once
   * instead, having written nothing.
   */
  addApiRequests(counts: readonly ApiRequestCount[]): Promise<void>;
  countPrompts(workspaceId: string): Promise<number>;
  /** Articles written from `fromInstant` (included) to `untilInstant` (excluded), RFC 3339 UTC. */
  countArticlesWritten(workspaceId: string, fromInstant: string, untilInstant: string): Promise<number>;
  /** Requests recorded for the workspace on the epoch days `fromDay..toDay`, both included. */
  sumApiRequests(workspaceId: string, fromDay: number, toDay: number): Promise<number>;
  /** The days of `fromDay..toDay` (both included) with requests recorded, ascending; days without any are absent. */
  listApiRequestsByDay(workspaceId: string, fromDay: number, toDay: number): Promise<DailyApiRequests[]>;
}

/** Requests recorded for a workspace on one epoch day. */
export interface DailyApiRequests {
  day: number;
  requests: number;
}
