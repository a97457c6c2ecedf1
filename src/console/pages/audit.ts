import { ApiRefusal, type Schemas } from '../admin-api.js';
import { queryValue, type ConsoleAnswer, type ConsoleContext } from '../console-context.js';
import { html, when, type Html } from '../html.js';
import { notice, page } from '../layout.js';
import { everyItem, nameOf, nextPageLink, type ListPage } from './lists.js';
import { bundledContract } from '@workspace-read-api/contract/documents.js';

type Entry = Schemas['AuditLogEntry'];
type Member = Schemas['WorkspaceMember'];

/** Every action the audit log names, in the contract's order: the filter offers exactly these. */
function auditActions(): string[] {
  const document = bundledContract.openApi() as { components?: { schemas?: { AuditAction?: { enum?: string[] } } } };
  return document.components?.schemas?.AuditAction?.enum ?? [];
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The start of a UTC day, and of the day after: the API's `since` (included) and `until` (excluded). */
function dayStart(date: string | undefined, plusDays = 0): string | undefined {
  if (date === undefined || !DATE.test(date)) return date;
  return new Date(Date.parse(`${date}T00:00:00.000Z`) + plusDays * 86_400_000).toISOString();
}

function actorText(entry: Entry, members: readonly Member[]): string {
  if (entry.actor.type === 'cli') return 'operator (command line)';
  if (entry.actor.type === 'anonymous' || entry.actor.user_id === null) return 'anonymous';
  return nameOf(members, entry.actor.user_id);
}

/** The audit log, newest first, filtered by actor, action and dates, from the API's own list. */
export async function auditLog(c: ConsoleContext): Promise<ConsoleAnswer> {
  const filter = { actor: queryValue(c.req, 'actor'), action: queryValue(c.req, 'action'), from: queryValue(c.req, 'from'), to: queryValue(c.req, 'to') };
  const notices: Html[] = [];
  let entries: ListPage<Entry> = { items: [], next_cursor: null };
  let members: Member[] = [];
  let status = 200;
  try {
    [entries, members] = await Promise.all([
      c.api.call<ListPage<Entry>>('GET', '/audit-log', {
        query: { actor: filter.actor, action: filter.action, since: dayStart(filter.from), until: dayStart(filter.to, 1), limit: '50', cursor: queryValue(c.req, 'cursor') },
      }).then((a) => a.data),
      everyItem<Member>(c.api, '/members'),
    ]);
  } catch (err) {
    if (!(err instanceof ApiRefusal)) throw err;
    notices.push(notice('error', err.message));
    status = err.status;
  }
  const actors: Array<[string, string]> = [['', 'anyone'], ...members.map((m): [string, string] => [m.user_id, m.name]), ['cli', 'operator (command line)'], ['anonymous', 'anonymous']];
  const form = html`<form method="get" action="/console/audit" class="card filters-form">
<div class="row">
<div><label for="audit-actor">Actor</label>
<select id="audit-actor" name="actor">${actors.map(([value, label]) => html`<option value="${value}"${filter.actor === value ? html` selected` : ''}>${label}</option>`)}</select></div>
<div><label for="audit-action">Action</label>
<select id="audit-action" name="action"><option value="">any</option>${auditActions().map((a) => html`<option value="${a}"${filter.action === a ? html` selected` : ''}>${a}</option>`)}</select></div>
<div><label for="audit-from">From (UTC)</label><input id="audit-from" name="from" type="date" value="${filter.from ?? ''}"></div>
<div><label for="audit-to">To (UTC, included)</label><input id="audit-to" name="to" type="date" value="${filter.to ?? ''}"></div>
</div>
<button type="submit">Filter</button> <a href="/console/audit">Clear</a>
</form>`;
  const table = entries.items.length === 0
    ? html`<p>No entries${filter.actor || filter.action || filter.from || filter.to ? ' match these filters' : ''}.</p>`
    : html`<table>
<caption>Audit log, newest first</caption>
<thead><tr><th scope="col">When</th><th scope="col">Actor</th><th scope="col">Action</th><th scope="col">Object</th><th scope="col">Outcome</th><th scope="col">Address</th><th scope="col">Request id</th></tr></thead>
<tbody>${entries.items.map((e) => html`<tr>
<td>${when(e.occurred_at)}</td>
<td>${actorText(e, members)}</td>
<td><code>${e.action}</code></td>
<td>${e.object === null ? '—' : html`${e.object.type} <code>${e.object.id}</code>`}</td>
<td>${e.outcome}</td>
<td>${e.address ?? '—'}</td>
<td><code>${e.request_id ?? '—'}</code></td>
</tr>`)}</tbody>
</table>${nextPageLink('/console/audit', filter, entries.next_cursor)}`;
  return { page: page({ title: 'Audit log', section: 'audit', member: c.member, csrf: c.csrf, body: html`${form}${table}`, notices }), status };
}
