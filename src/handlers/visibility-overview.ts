import type { OperationHandler } from '../operations/handler-types.js';
import { readVisibilityCompetitors } from '../visibility/competitors.js';
import { readVisibilityRates } from '../visibility/rates.js';
import { readVisibilitySetup } from '../visibility/setup.js';
import { ok } from '../operations/success.js';

export const getVisibilitySetup: OperationHandler<'getVisibilitySetup'> = async ({ caller, store }) =>
  ok(await readVisibilitySetup(store, caller.principal.workspace_id));

export const getVisibilityRates: OperationHandler<'getVisibilityRates'> = async ({ caller, store, query, now }) =>
  ok(await readVisibilityRates(store.visibilityOverview, {
    workspaceId: caller.principal.workspace_id,
    range: query.range,
    alpha: query.alpha,
    now,
  }));

export const getVisibilityCompetitors: OperationHandler<'getVisibilityCompetitors'> = async ({ caller, store, query, now }) =>
  ok(await readVisibilityCompetitors(store, { workspaceId: caller.principal.workspace_id, range: query.range, now }));
