import { formatType, type RecordType } from '../record-type.js';
import type { ImportRecords } from '../../../generated/import-format.js';
import { savePlan } from '../../store/whole-row-saves.js';
import { WORKSPACE_PLANS } from '../tables/workspace.js';

/** The workspace's plan and billing period: one per workspace, the latest import wins. */
export const workspacePlan: RecordType<ImportRecords['workspace_plan']> = {
  ...formatType('workspace_plan'),
  open(io, { workspaceId }) {
    return {
      apply(record, ctx) {
        // Dates are YYYY-MM-DD, so text order is calendar order.
        if (record.period_end < record.period_start) ctx.fail('period_end', `must not be before period_start (${record.period_start})`);
        const next = {
          id: record.id,
          workspace_id: workspaceId,
          name: record.name,
          tracked_prompts_limit: record.tracked_prompts_limit,
          articles_per_month_limit: record.articles_per_month_limit,
          period_start: record.period_start,
          period_end: record.period_end,
        };
        const plan = savePlan(WORKSPACE_PLANS, io.workspacePlan.get(), next);
        if (plan.write) io.workspacePlan.put(next);
        return plan.result.outcome;
      },
    };
  },
};
