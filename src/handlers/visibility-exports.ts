import type { HandlerContext, OperationHandler, OperationId, StreamResult } from '../operations/handler-types.js';
import { exportAnswers as answersFile, exportDailyRates as dailyRatesFile, type ExportFile, type ExportFormat } from '../visibility/exports.js';

function download(file: ExportFile): StreamResult {
  return { status: 200, stream: { contentType: file.contentType, filename: file.filename, lines: file.lines } };
}

/** What a download reads of its context; the CSV operation's query has the NDJSON one's filters. */
type ExportContext<Op extends OperationId> = Pick<HandlerContext<Op>, 'caller' | 'store' | 'query' | 'now'>;

// One operation per file format (the CSV one keeps a `format` parameter that only says `csv`),
// each with the same filters.
function answers(format: ExportFormat, { caller, store, query, now }: ExportContext<'exportAnswersNdjson'>): StreamResult {
  return download(answersFile(store, {
    workspaceId: caller.principal.workspace_id,
    range: query.range,
    format,
    prompt: query.prompt,
    platform: query.platform,
    mentioned: query.mentioned,
    cited: query.cited,
    now,
  }));
}

function dailyRates(format: ExportFormat, { caller, store, query, now }: ExportContext<'exportDailyRatesNdjson'>): StreamResult {
  return download(dailyRatesFile(store, {
    workspaceId: caller.principal.workspace_id,
    range: query.range,
    format,
    platform: query.platform,
    now,
  }));
}

export const exportAnswers: OperationHandler<'exportAnswers'> = (ctx) => answers('csv', ctx);
export const exportAnswersNdjson: OperationHandler<'exportAnswersNdjson'> = (ctx) => answers('ndjson', ctx);
export const exportDailyRates: OperationHandler<'exportDailyRates'> = (ctx) => dailyRates('csv', ctx);
export const exportDailyRatesNdjson: OperationHandler<'exportDailyRatesNdjson'> = (ctx) => dailyRates('ndjson', ctx);
