import type { OperationHandler, StreamResult } from './handler-types.js';
import { writeLines } from './write-lines.js';
import { DEFAULT_RANGE } from '../analytics/periods.js';
import { exportAnswers as answersFile, exportDailyRates as dailyRatesFile, type ExportFile } from '../visibility/exports.js';

function download(file: ExportFile): StreamResult {
  return { status: 200, stream: { contentType: file.contentType, filename: file.filename, write: (sink) => writeLines(sink, file.lines()) } };
}

export const exportAnswers: OperationHandler<'exportAnswers'> = ({ caller, store, query, now }) =>
  download(answersFile(store, {
    workspaceId: caller.principal.workspace_id,
    range: query.range ?? DEFAULT_RANGE,
    format: query.format ?? 'csv',
    prompt: query.prompt,
    platform: query.platform,
    mentioned: query.mentioned,
    cited: query.cited,
    now,
  }));

export const exportDailyRates: OperationHandler<'exportDailyRates'> = ({ caller, store, query, now }) =>
  download(dailyRatesFile(store, {
    workspaceId: caller.principal.workspace_id,
    range: query.range ?? DEFAULT_RANGE,
    format: query.format ?? 'csv',
    platform: query.platform,
    now,
  }));
