import { formatType, type RecordType } from '../record-type.js';
import type { ImportRecords } from '../../../generated/import-format.js';
import { orNull, saveWithEvent, utc, utcOrNull } from '../record-fields.js';
import { saveRow, stateOf } from '../saved-rows.js';
import { CONTENT_TABLES, contentColumns } from '../../store/content-rows.js';

/** Runs of AI agents; a status change sends `agent_task.status_updated`. */
export const agentTask: RecordType<ImportRecords['agent_task']> = {
  ...formatType('agent_task'),
  open(io, { workspaceId }) {
    const rows = io.saved(CONTENT_TABLES.agentTask);
    return {
      apply(record, ctx) {
        const { input_tokens, output_tokens, total_tokens } = record.usage;
        if (total_tokens !== input_tokens + output_tokens) {
          ctx.fail('usage.total_tokens', `must equal input_tokens + output_tokens (${input_tokens + output_tokens})`);
        }
        const startedAt = utcOrNull(ctx, 'started_at', record.started_at);
        const endedAt = utcOrNull(ctx, 'ended_at', record.ended_at);
        if (startedAt !== null && endedAt !== null && endedAt < startedAt) ctx.fail('ended_at', `may not be before started_at (${startedAt})`);
        const createdAt = utc(ctx, 'created_at', record.created_at);
        // Without an update time of its own, a task last changed when it was queued, started or ended.
        const lastEvent = [createdAt, startedAt ?? '', endedAt ?? ''].reduce((a, b) => (b > a ? b : a));
        const updatedAt = record.updated_at === undefined ? lastEvent : utc(ctx, 'updated_at', record.updated_at);
        if (updatedAt < lastEvent) ctx.fail('updated_at', `may not be before the task's last change (${lastEvent})`);
        const row = contentColumns.agentTask({
          id: record.id,
          workspace_id: workspaceId,
          agent: { ...record.agent, id: record.agent.id.toLowerCase() },
          name: record.name,
          status: record.status,
          inputs: record.inputs ?? {},
          outputs: orNull(record.outputs),
          usage: record.usage,
          execution_duration: orNull(record.execution_duration),
          started_at: startedAt,
          ended_at: endedAt,
          created_at: createdAt,
          updated_at: updatedAt,
        });
        return saveWithEvent(ctx, {
          id: record.id,
          next: record.status,
          stateOf: () => stateOf(rows, CONTENT_TABLES.agentTask, record.id),
          save: () => saveRow(rows, CONTENT_TABLES.agentTask, row),
          event: 'agent_task.status_updated',
        });
      },
    };
  },
};
