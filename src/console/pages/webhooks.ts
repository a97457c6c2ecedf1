import { ApiRefusal, type Schemas } from '../admin-api.js';
import { field, fieldList, formIdempotencyKey, queryValue, type ConsoleAnswer, type ConsoleContext } from '../console-context.js';
import { html, when, type Html } from '../html.js';
import { formFields, notice, page } from '../layout.js';
import { nextPageLink, type ListPage } from './lists.js';
import { noticeFor } from './notices.js';

type Webhook = Schemas['Webhook'];
type CatalogEntry = Schemas['EventCatalogEntry'];
type Delivery = Schemas['WebhookDelivery'];
type DeliveryDetail = Schemas['WebhookDeliveryDetail'];

const DELIVERY_STATUSES = ['pending', 'delivered', 'recovered', 'failed'] as const;
/** The grace periods the rotate form offers, in seconds (the API takes 0 to 7 days). */
const GRACE_PERIODS: Array<[number, string]> = [[0, 'none: the old secret stops at once'], [3_600, '1 hour'], [86_400, '24 hours'], [604_800, '7 days']];

/** The rotate form's choices, the contract's default preselected (and offered, were it none of them). */
function graceOptions(c: ConsoleContext): Html {
  const preselected: number = c.bodyDefault('rotateWebhookSecret', 'grace_period_seconds');
  const choices = GRACE_PERIODS.some(([s]) => s === preselected) ? GRACE_PERIODS : [...GRACE_PERIODS, [preselected, `${preselected} seconds`] as [number, string]];
  return html`${choices.map(([s, label]) => html`<option value="${s}"${s === preselected ? html` selected` : ''}>${label}</option>`)}`;
}

function webhooksPage(c: ConsoleContext, title: string, body: Html, notices: Html[] = []): Html {
  return page({ title, section: 'webhooks', member: c.member, csrf: c.csrf, body, notices });
}

/** The page's answer to a refusal of the API: its message, at its status. */
function refused(c: ConsoleContext, err: unknown, title = 'Webhooks'): ConsoleAnswer {
  if (!(err instanceof ApiRefusal)) throw err;
  return { page: webhooksPage(c, title, html`<p><a href="/console/webhooks">Back to the webhooks</a></p>`, [notice('error', err.message)]), status: err.status };
}

async function catalog(c: ConsoleContext): Promise<CatalogEntry[]> {
  return (await c.api.call<CatalogEntry[]>('GET', '/webhooks/events')).data;
}

function eventBoxes(entries: CatalogEntry[], checked: readonly string[]): Html {
  return html`<fieldset><legend>Events</legend>
${entries.map((e) => html`<label class="check"><input type="checkbox" name="events" value="${e.event}"${checked.includes(e.event) ? html` checked` : ''}> <code>${e.event}</code>: ${e.description}</label>`)}
</fieldset>`;
}

function webhookFields(entries: CatalogEntry[], values: { url: string; name: string; description: string; events: readonly string[] }, id: string): Html {
  return html`<label for="${id}-url">Endpoint URL</label>
<input id="${id}-url" name="url" type="url" value="${values.url}" required maxlength="2048">
<label for="${id}-name">Name</label>
<input id="${id}-name" name="name" value="${values.name}" required maxlength="100">
<label for="${id}-description">Description (optional)</label>
<input id="${id}-description" name="description" value="${values.description}" maxlength="500">
${eventBoxes(entries, values.events)}`;
}

function webhookBody(c: ConsoleContext): Record<string, unknown> {
  const description = field(c.form, 'description');
  return { url: field(c.form, 'url'), name: field(c.form, 'name'), description: description === '' ? null : description, events: fieldList(c.form, 'events') };
}

async function listView(c: ConsoleContext, notices: Html[] = [], status = 200): Promise<ConsoleAnswer> {
  let hooks: ListPage<Webhook>;
  let entries: CatalogEntry[];
  try {
    [hooks, entries] = await Promise.all([
      c.api.call<ListPage<Webhook>>('GET', '/webhooks', { query: { limit: '100', cursor: queryValue(c.req, 'cursor') } }).then((a) => a.data),
      catalog(c),
    ]);
  } catch (err) {
    if (err instanceof ApiRefusal) return { page: webhooksPage(c, 'Webhooks', html``, [...notices, notice('error', err.message)]), status: err.status };
    throw err;
  }
  const table = hooks.items.length === 0
    ? html`<p>No webhooks yet.</p>`
    : html`<table>
<caption>Webhooks of the workspace</caption>
<thead><tr><th scope="col">Name</th><th scope="col">URL</th><th scope="col">Events</th><th scope="col">State</th><th scope="col">Failures in a row</th></tr></thead>
<tbody>${hooks.items.map((w) => html`<tr>
<td><a href="/console/webhooks/${w.id}">${w.name}</a></td>
<td><code>${w.url}</code></td>
<td>${w.events.join(', ')}</td>
<td>${w.enabled ? 'enabled' : `disabled ${when(w.disabled_at)}`}</td>
<td>${w.consecutive_failures}</td>
</tr>`)}</tbody>
</table>${nextPageLink('/console/webhooks', {}, hooks.next_cursor)}`;
  const done = noticeFor(queryValue(c.req, 'done'));
  const create = html`<section aria-labelledby="create-webhook">
<h2 id="create-webhook">Create a webhook</h2>
<form method="post" action="/console/webhooks" class="card">
${formFields(c.csrf, { idempotent: true })}
${webhookFields(entries, { url: field(c.form, 'url'), name: field(c.form, 'name'), description: field(c.form, 'description'), events: fieldList(c.form, 'events') }, 'new')}
<button type="submit" data-disable-on-submit>Create webhook</button>
</form>
</section>`;
  return { page: webhooksPage(c, 'Webhooks', html`${table}${create}`, [...(done ? [done] : []), ...notices]), status };
}

export const listWebhooks = (c: ConsoleContext): Promise<ConsoleAnswer> => listView(c);

/** A signing secret, shown once (at creation and at rotation), with a copy button. */
function secretCard(heading: string, secret: string, after: Html): Html {
  return html`<section class="card secret" aria-labelledby="secret-heading">
<h2 id="secret-heading">${heading}</h2>
<p><strong>Copy the signing secret now: it is shown only this once.</strong></p>
<div class="secret-value"><code id="secret-value">${secret}</code>
<button type="button" class="copy" data-copy-target="secret-value" hidden>Copy</button></div>
${after}
</section>`;
}

export async function createWebhook(c: ConsoleContext): Promise<ConsoleAnswer> {
  try {
    const { data } = await c.api.call<Schemas['WebhookWithSecret']>('POST', '/webhooks', { body: webhookBody(c), idempotencyKey: formIdempotencyKey(c.form) });
    return {
      page: webhooksPage(c, 'Webhooks', secretCard(`Webhook “${data.webhook.name}” created`, data.secret,
        html`<p><a href="/console/webhooks/${data.webhook.id}">Open the webhook</a></p>`)),
      status: 201,
    };
  } catch (err) {
    if (err instanceof ApiRefusal) return listView(c, [notice('error', err.message)], err.status);
    throw err;
  }
}

function deliveriesTable(hook: Webhook, deliveries: ListPage<Delivery>, filter: { status?: string; event_type?: string }): Html {
  const base = `/console/webhooks/${hook.id}`;
  const filters = html`<nav aria-label="Delivery status" class="filters"><ul>
<li><a href="${base}#deliveries"${filter.status === undefined ? html` aria-current="true"` : ''}>All</a></li>
${DELIVERY_STATUSES.map((s) => html`<li><a href="${`${base}?status=${s}#deliveries`}"${filter.status === s ? html` aria-current="true"` : ''}>${s}</a></li>`)}
</ul></nav>`;
  const rows = deliveries.items.map((d) => html`<tr>
<td><a href="${base}/deliveries/${d.id}">${when(d.created_at)}</a></td>
<td><code>${d.event_type}</code></td>
<td>${d.delivery_status}</td>
<td>${d.attempt} of ${d.max_attempts}</td>
<td>${d.http_status ?? '—'}</td>
<td>${d.response_time_ms === null ? '—' : `${d.response_time_ms} ms`}</td>
<td>${when(d.next_attempt_at)}</td>
</tr>`);
  return html`<section aria-labelledby="deliveries">
<h2 id="deliveries">Deliveries</h2>
${filters}
${deliveries.items.length === 0 ? html`<p>No deliveries${filter.status ? ` ${filter.status}` : ''}.</p>` : html`<table>
<caption>Deliveries, newest first${filter.status ? ` (${filter.status})` : ''}</caption>
<thead><tr><th scope="col">Created</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">HTTP status</th><th scope="col">Response time</th><th scope="col">Next attempt</th></tr></thead>
<tbody>${rows}</tbody>
</table>`}
${nextPageLink(base, filter, deliveries.next_cursor)}
</section>`;
}

async function detailView(c: ConsoleContext, notices: Html[] = [], status = 200, extra?: Html): Promise<ConsoleAnswer> {
  const id = String(c.req.params.webhookId);
  const filter = { status: queryValue(c.req, 'status'), event_type: queryValue(c.req, 'event_type') };
  let hook: Webhook;
  let entries: CatalogEntry[];
  let deliveries: ListPage<Delivery>;
  try {
    [hook, entries, deliveries] = await Promise.all([
      c.api.call<Webhook>('GET', `/webhooks/${encodeURIComponent(id)}`).then((a) => a.data),
      catalog(c),
      c.api.call<ListPage<Delivery>>('GET', `/webhooks/${encodeURIComponent(id)}/deliveries`, { query: { ...filter, limit: '25', cursor: queryValue(c.req, 'cursor') } }).then((a) => a.data),
    ]);
  } catch (err) {
    return refused(c, err, 'Webhook');
  }
  const done = noticeFor(queryValue(c.req, 'done'));
  const base = `/console/webhooks/${hook.id}`;
  const grace = hook.previous_secret_expires_at === null
    ? html``
    : html`<p>The previous secret still verifies until ${when(hook.previous_secret_expires_at)} (rotation grace period).</p>`;
  const body = html`${extra ?? ''}
<section class="card" aria-labelledby="state">
<h2 id="state">State</h2>
<p><code>${hook.url}</code> · ${hook.enabled ? 'enabled' : `disabled ${when(hook.disabled_at)}`} · ${hook.consecutive_failures} failed deliveries in a row · secret ending <code>${hook.secret_masked}</code></p>
${grace}
<div class="row">
<form method="post" action="${base}/${hook.enabled ? 'disable' : 'enable'}">
${formFields(c.csrf, { idempotent: true })}
<button type="submit" class="secondary" data-disable-on-submit${hook.enabled ? html` data-confirm="Disable this webhook? No event is sent to it until it is enabled again."` : ''}>${hook.enabled ? 'Disable' : 'Enable'}</button>
</form>
<a href="${base}/delete">Delete…</a>
</div>
</section>
<section class="card" aria-labelledby="test">
<h2 id="test">Send a test event</h2>
<form method="post" action="${base}/test">
${formFields(c.csrf, { idempotent: true })}
<label for="test-event">Event</label>
<select id="test-event" name="event">${entries.map((e) => html`<option value="${e.event}">${e.event}</option>`)}</select>
<button type="submit" data-disable-on-submit>Send test event</button>
</form>
</section>
<section class="card" aria-labelledby="rotate">
<h2 id="rotate">Rotate the signing secret</h2>
<form method="post" action="${base}/rotate-secret">
${formFields(c.csrf, { idempotent: true })}
<label for="grace">Keep the old secret working for</label>
<select id="grace" name="grace_period_seconds">${graceOptions(c)}</select>
<button type="submit" class="secondary" data-disable-on-submit data-confirm="Rotate the signing secret? The new secret is shown once.">Rotate secret</button>
</form>
</section>
<section class="card" aria-labelledby="edit">
<h2 id="edit">Edit</h2>
<form method="post" action="${base}">
${formFields(c.csrf)}
${webhookFields(entries, { url: hook.url, name: hook.name, description: hook.description ?? '', events: hook.events }, 'edit')}
<button type="submit" data-disable-on-submit>Save</button>
</form>
</section>
${deliveriesTable(hook, deliveries, filter)}`;
  return { page: webhooksPage(c, `Webhook “${hook.name}”`, body, [...(done ? [done] : []), ...notices]), status };
}

export const showWebhook = (c: ConsoleContext): Promise<ConsoleAnswer> => detailView(c);

/** A write on one webhook, then back to its page with what happened, or its page with the API's refusal. */
async function webhookWrite(c: ConsoleContext, write: (path: string) => Promise<unknown>, done: string): Promise<ConsoleAnswer> {
  const path = `/webhooks/${encodeURIComponent(String(c.req.params.webhookId))}`;
  try {
    await write(path);
  } catch (err) {
    if (err instanceof ApiRefusal) return detailView(c, [notice('error', err.message)], err.status);
    throw err;
  }
  return { redirect: `/console/webhooks/${String(c.req.params.webhookId)}?done=${done}` };
}

export const updateWebhook = (c: ConsoleContext): Promise<ConsoleAnswer> =>
  webhookWrite(c, (path) => c.api.call('PATCH', path, { body: webhookBody(c) }), 'webhook-updated');
export const enableWebhook = (c: ConsoleContext): Promise<ConsoleAnswer> =>
  webhookWrite(c, (path) => c.api.call('POST', `${path}/enable`, { idempotencyKey: formIdempotencyKey(c.form) }), 'webhook-enabled');
export const disableWebhook = (c: ConsoleContext): Promise<ConsoleAnswer> =>
  webhookWrite(c, (path) => c.api.call('POST', `${path}/disable`, { idempotencyKey: formIdempotencyKey(c.form) }), 'webhook-disabled');

export async function rotateWebhookSecret(c: ConsoleContext): Promise<ConsoleAnswer> {
  const path = `/webhooks/${encodeURIComponent(String(c.req.params.webhookId))}/rotate-secret`;
  const grace = Number(field(c.form, 'grace_period_seconds'));
  try {
    const { data } = await c.api.call<Schemas['WebhookWithSecret']>('POST', path, {
      body: { grace_period_seconds: Number.isInteger(grace) ? grace : field(c.form, 'grace_period_seconds') },
      idempotencyKey: formIdempotencyKey(c.form),
    });
    const graceText = data.webhook.previous_secret_expires_at === null
      ? 'The previous secret stopped working at once.'
      : `The previous secret keeps verifying until ${when(data.webhook.previous_secret_expires_at)}: move your receiver to the new one before then.`;
    return { page: webhooksPage(c, `Webhook “${data.webhook.name}”`, secretCard('New signing secret', data.secret, html`<p>${graceText}</p>
<p><a href="/console/webhooks/${data.webhook.id}">Back to the webhook</a></p>`)) };
  } catch (err) {
    if (err instanceof ApiRefusal) return detailView(c, [notice('error', err.message)], err.status);
    throw err;
  }
}

export async function testWebhook(c: ConsoleContext): Promise<ConsoleAnswer> {
  const path = `/webhooks/${encodeURIComponent(String(c.req.params.webhookId))}/test`;
  try {
    const { data } = await c.api.call<Schemas['WebhookTestResult']>('POST', path, { body: { event: field(c.form, 'event') }, idempotencyKey: formIdempotencyKey(c.form) });
    const outcome = data.success
      ? notice('info', `Test event ${data.event} delivered: the receiver answered ${data.http_status ?? ''} in ${data.response_time_ms} ms.`)
      : notice('error', `Test event ${data.event} failed${data.http_status === null ? '' : ` with HTTP ${data.http_status}`}${data.error === null ? '' : `: ${data.error}`} (${data.response_time_ms} ms).`);
    return detailView(c, [outcome]);
  } catch (err) {
    if (err instanceof ApiRefusal) return detailView(c, [notice('error', err.message)], err.status);
    throw err;
  }
}

export async function confirmDeleteWebhook(c: ConsoleContext): Promise<ConsoleAnswer> {
  const id = String(c.req.params.webhookId);
  try {
    const { data: hook } = await c.api.call<Webhook>('GET', `/webhooks/${encodeURIComponent(id)}`);
    return {
      page: webhooksPage(c, `Delete “${hook.name}”?`, html`<section class="card">
<p>No more events go to <code>${hook.url}</code>; deliveries still pending end as failed. This cannot be undone.</p>
<form method="post" action="/console/webhooks/${hook.id}/delete">
${formFields(c.csrf)}
<button type="submit" class="danger" data-disable-on-submit>Delete the webhook</button>
<a href="/console/webhooks/${hook.id}">Cancel</a>
</form>
</section>`),
    };
  } catch (err) {
    return refused(c, err, 'Webhook');
  }
}

export async function deleteWebhook(c: ConsoleContext): Promise<ConsoleAnswer> {
  try {
    await c.api.call('DELETE', `/webhooks/${encodeURIComponent(String(c.req.params.webhookId))}`);
  } catch (err) {
    if (err instanceof ApiRefusal) return detailView(c, [notice('error', err.message)], err.status);
    throw err;
  }
  return { redirect: '/console/webhooks?done=webhook-deleted' };
}

function deliveryView(c: ConsoleContext, d: DeliveryDetail, notices: Html[] = []): Html {
  const base = `/console/webhooks/${d.webhook_id}`;
  const attempts = d.attempts.length === 0
    ? html`<p>No attempt yet${d.next_attempt_at ? `; the first is due ${when(d.next_attempt_at)}` : ''}.</p>`
    : html`<ol class="attempts">${d.attempts.map((a) => html`<li class="card">
<h3>Attempt ${a.attempt}: ${a.outcome}</h3>
<p>Started ${when(a.started_at)} · ${a.http_status === null ? 'no HTTP answer' : `HTTP ${a.http_status}`} · ${a.response_time_ms} ms</p>
${a.error === null ? '' : html`<p>Error: ${a.error}</p>`}
<h4>Response body</h4>
<pre tabindex="0">${a.response_body ?? '(none)'}</pre>
</li>`)}</ol>`;
  const done = noticeFor(queryValue(c.req, 'done'));
  return webhooksPage(c, `Delivery of ${d.event_type}`, html`<p><a href="${base}#deliveries">Back to the webhook</a></p>
<section class="card" aria-labelledby="delivery-state">
<h2 id="delivery-state">State</h2>
<p>${d.delivery_status} · ${d.attempt} of ${d.max_attempts} attempts · created ${when(d.created_at)}${d.next_attempt_at ? ` · next attempt ${when(d.next_attempt_at)}` : ''}</p>
<p>Delivery id (the <code>webhook-id</code> header of every attempt): <code>${d.id}</code></p>
<form method="post" action="${base}/deliveries/${d.id}/redeliver">
${formFields(c.csrf, { idempotent: true })}
<button type="submit" data-disable-on-submit>Redeliver</button>
</form>
</section>
<section aria-labelledby="request">
<h2 id="request">Request body</h2>
<pre tabindex="0">${JSON.stringify(d.payload, null, 2)}</pre>
</section>
<section aria-labelledby="attempts">
<h2 id="attempts">Attempts</h2>
${attempts}
</section>`, [...(done ? [done] : []), ...notices]);
}

function deliveryPath(c: ConsoleContext): string {
  return `/webhooks/${encodeURIComponent(String(c.req.params.webhookId))}/deliveries/${encodeURIComponent(String(c.req.params.deliveryId))}`;
}

export async function showDelivery(c: ConsoleContext, notices: Html[] = [], status = 200): Promise<ConsoleAnswer> {
  try {
    const { data } = await c.api.call<DeliveryDetail>('GET', deliveryPath(c));
    return { page: deliveryView(c, data, notices), status };
  } catch (err) {
    return refused(c, err, 'Delivery');
  }
}

export async function redeliver(c: ConsoleContext): Promise<ConsoleAnswer> {
  try {
    await c.api.call('POST', `${deliveryPath(c)}/redeliver`, { idempotencyKey: formIdempotencyKey(c.form) });
  } catch (err) {
    if (err instanceof ApiRefusal) return showDelivery(c, [notice('error', err.message)], err.status);
    throw err;
  }
  return { redirect: `/console/webhooks/${String(c.req.params.webhookId)}/deliveries/${String(c.req.params.deliveryId)}?done=delivery-redelivered` };
}
