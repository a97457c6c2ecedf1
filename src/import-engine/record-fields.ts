// Field handling shared by the content-map, content and brand-intelligence record types: their
// timestamps, optional fields and the rule that a status or stage change sends a webhook event.
import type { SaveResult } from '../store/interfaces/saved-rows.js';
import type { EventType } from '../../generated/events.js';
import type { ApplyContext, Outcome } from './record-type.js';
import { parseTimestamp } from '../store/timestamp.js';

/** The timestamp in UTC with milliseconds (so stored timestamps sort as text), or the import fails. */
export function utc(ctx: ApplyContext, field: string, text: string): string {
  const ms = parseTimestamp(text);
  if (ms === undefined) return ctx.fail(field, `must be an RFC 3339 date-time with a time zone (got ${JSON.stringify(text)})`);
  return new Date(ms).toISOString();
}

export function utcOrNull(ctx: ApplyContext, field: string, text: string | null | undefined): string | null {
  return text === null || text === undefined ? null : utc(ctx, field, text);
}

/** `created_at` and `updated_at` (which defaults to `created_at` and may not precede it), in UTC. */
export function lifetime(ctx: ApplyContext, record: { created_at: string; updated_at?: string | undefined }) {
  const createdAt = utc(ctx, 'created_at', record.created_at);
  const updatedAt = record.updated_at === undefined ? createdAt : utc(ctx, 'updated_at', record.updated_at);
  if (updatedAt < createdAt) ctx.fail('updated_at', `may not be before created_at (${createdAt})`);
  return { created_at: createdAt, updated_at: updatedAt };
}

/** An optional nullable field: omitted means null. */
export function orNull<T>(value: T | null | undefined): T | null {
  return value === undefined ? null : value;
}

/**
 * Writes a record whose status (or stage) change is a webhook event, and emits that event in the
 * import's transaction with the record's payload as stored.
 *
 * A record that first arrives already in a state counts as a change from nothing. `announces`
 * narrows the event to the states it reports (a research batch: only when it completes or fails);
 * every change of state is announced without it.
 *
 * The payload is built once every other line of the file is written (a research batch lists ideas
 * that come after it, an article shows the name of a topic defined later): a change of a stored
 * record is put off to the end of the file (`deferred`), a new record is written now and its event
 * built at the end. Without events nothing waits.
 */
export function saveWithEvent<State>(
  ctx: ApplyContext,
  change: {
    id: string;
    next: State;
    stateOf: () => State | undefined;
    save: () => SaveResult<State>;
    event: EventType;
    announces?: (state: State) => boolean;
  },
): Outcome | 'deferred' {
  const emits = (previous: State | undefined): boolean => previous !== change.next && (change.announces?.(change.next) ?? true);
  if (ctx.eventsOn && !ctx.isNew && !ctx.finalPass) {
    const previous = change.stateOf();
    if (previous !== undefined && emits(previous)) return 'deferred';
  }
  const result = change.save();
  if (emits(result.previous)) {
    if (result.previous === undefined && !ctx.finalPass) ctx.emitAtEnd(change.event, change.id);
    else ctx.emit(change.event, change.id);
  }
  return result.outcome;
}
