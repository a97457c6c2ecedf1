import { ApiRefusal, type Schemas } from '../admin-api.js';
import { field, fieldList, formIdempotencyKey, queryValue, type ConsoleAnswer, type ConsoleContext } from '../console-context.js';
import { html, when, type Html } from '../html.js';
import { formFields, notice, page } from '../layout.js';
import { everyItem, nameOf, nextPageLink, type ListPage } from './lists.js';
import { ALL_SCOPES } from '../../keys/scopes.js';
import { noticeFor } from './notices.js';

type ApiKey = Schemas['WorkspaceApiKey'];
type Member = Schemas['WorkspaceMember'];

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

function keysPage(c: ConsoleContext, body: Html, notices: Html[] = []): Html {
  return page({ title: 'API keys', section: 'keys', member: c.member, csrf: c.csrf, body, notices });
}

function status(key: ApiKey, now: Date): string {
  if (key.revoked_at !== null) return `revoked ${when(key.revoked_at)}`;
  if (Date.parse(key.expires_at) <= now.getTime()) return 'expired';
  return 'active';
}

function createForm(c: ConsoleContext): Html {
  return html`<section aria-labelledby="create-key">
<h2 id="create-key">Create a key</h2>
<form method="post" action="/console/keys" class="card">
${formFields(c.csrf, { idempotent: true })}
<label for="key-name">Name</label>
<input id="key-name" name="name" required maxlength="100">
<fieldset><legend>Scopes</legend>
${ALL_SCOPES.map((s) => html`<label class="check"><input type="checkbox" name="scopes" value="${s}" checked> ${s}</label>`)}
</fieldset>
<label for="key-expires">Expires on (UTC; one year from now if empty)</label>
<input id="key-expires" name="expires_on" type="date">
<button type="submit" data-disable-on-submit>Create key</button>
</form>
</section>`;
}

/** The keys, the form that creates one, and each key's edit and revoke links. */
async function listView(c: ConsoleContext, notices: Html[] = [], status_ = 200): Promise<ConsoleAnswer> {
  const cursor = queryValue(c.req, 'cursor');
  let keys: ListPage<ApiKey>;
  let members: Member[];
  try {
    [keys, members] = await Promise.all([
      c.api.call<ListPage<ApiKey>>('GET', '/api-keys', { query: { limit: '100', cursor } }).then((a) => a.data),
      everyItem<Member>(c.api, '/members'),
    ]);
  } catch (err) {
    if (err instanceof ApiRefusal) return { page: keysPage(c, html``, [...notices, notice('error', err.message)]), status: err.status };
    throw err;
  }
  const now = new Date();
  const rows = keys.items.map((k) => html`<tr>
<td>${k.name}</td>
<td><code>${k.prefix}…</code></td>
<td>${k.scopes.length === 0 ? html`<em>none (only /me)</em>` : k.scopes.join(', ')}</td>
<td>${nameOf(members, k.created_by)}</td>
<td>${when(k.created_at)}</td>
<td>${when(k.last_used_at)}</td>
<td>${when(k.expires_at)}</td>
<td>${status(k, now)}</td>
<td class="actions">${k.revoked_at === null
    ? html`<a href="/console/keys/${k.id}">Edit</a> <a href="/console/keys/${k.id}/revoke">Revoke…</a>`
    : ''}</td>
</tr>`);
  const table = keys.items.length === 0
    ? html`<p>No API keys yet.</p>`
    : html`<table>
<caption>API keys of the workspace, revoked ones included</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Prefix</th><th scope="col">Scopes</th><th scope="col">Created by</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Expires</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${rows}</tbody>
</table>${nextPageLink('/console/keys', {}, keys.next_cursor)}`;
  const done = noticeFor(queryValue(c.req, 'done'));
  return { page: keysPage(c, html`${table}${createForm(c)}`, [...(done ? [done] : []), ...notices]), status: status_ };
}

export const listKeys = (c: ConsoleContext): Promise<ConsoleAnswer> => listView(c);

/** The key shown once, with a copy button; never again. */
function createdView(c: ConsoleContext, created: Schemas['CreatedApiKey']): Html {
  return keysPage(c, html`<section class="card secret" aria-labelledby="new-key">
<h2 id="new-key">Your new key “${created.api_key.name}”</h2>
<p><strong>Copy it now: it is shown only this once.</strong> The service keeps only its hash.</p>
<div class="secret-value"><code id="new-key-value">${created.key}</code>
<button type="button" class="copy" data-copy-target="new-key-value" hidden>Copy</button></div>
<p>Scopes: ${created.api_key.scopes.join(', ') || 'none'} · expires ${when(created.api_key.expires_at)}</p>
<p><a href="/console/keys">Back to the keys</a></p>
</section>`);
}

/** A create replayed under the same form's key: the key was shown the first time, and is never shown again. */
function replayedView(c: ConsoleContext, refusal: ApiRefusal): Html {
  const keyId = UUID.exec(refusal.message)?.[0];
  return keysPage(c, html`<section class="card" aria-labelledby="replayed">
<h2 id="replayed">This key was already created</h2>
<p>This form had already been sent, and the key it created (${keyId ?? 'see the list'}) was shown then. A key is shown only once and the service does not keep it.</p>
<p>If you did not copy it, revoke it and create another.</p>
${keyId === undefined ? '' : html`<form method="post" action="/console/keys/${keyId}/revoke">
${formFields(c.csrf)}
<input type="hidden" name="then" value="create">
<button type="submit" class="danger" data-disable-on-submit>Revoke it and create another</button>
</form>`}
<p><a href="/console/keys">Back to the keys</a></p>
</section>`, [notice('error', refusal.message)]);
}

export async function createKey(c: ConsoleContext): Promise<ConsoleAnswer> {
  const expiresOn = field(c.form, 'expires_on');
  const body: Record<string, unknown> = { name: field(c.form, 'name'), scopes: fieldList(c.form, 'scopes') };
  if (expiresOn !== '') body.expires_at = /^\d{4}-\d{2}-\d{2}$/.test(expiresOn) ? `${expiresOn}T00:00:00.000Z` : expiresOn;
  try {
    const { data } = await c.api.call<Schemas['CreatedApiKey']>('POST', '/api-keys', { body, idempotencyKey: formIdempotencyKey(c.form) });
    return { page: createdView(c, data), status: 201 };
  } catch (err) {
    if (err instanceof ApiRefusal && err.code === 4090) return { page: replayedView(c, err), status: 409 };
    if (err instanceof ApiRefusal) return listView(c, [notice('error', err.message)], err.status);
    throw err;
  }
}

async function findKey(c: ConsoleContext, id: string): Promise<ApiKey | undefined> {
  return (await everyItem<ApiKey>(c.api, '/api-keys')).find((k) => k.id === id);
}

function editView(c: ConsoleContext, key: ApiKey, notices: Html[] = []): Html {
  return keysPage(c, html`<section class="card" aria-labelledby="edit-key">
<h2 id="edit-key">Rename or narrow “${key.name}”</h2>
<p>A key's scopes can only be narrowed: a wider key is a new key.</p>
<form method="post" action="/console/keys/${key.id}">
${formFields(c.csrf)}
<label for="edit-name">Name</label>
<input id="edit-name" name="name" value="${key.name}" required maxlength="100">
<fieldset><legend>Scopes it keeps</legend>
${key.scopes.map((s) => html`<label class="check"><input type="checkbox" name="scopes" value="${s}" checked> ${s}</label>`)}
</fieldset>
<button type="submit" data-disable-on-submit>Save</button>
</form>
<p><a href="/console/keys">Back to the keys</a></p>
</section>`, notices);
}

export async function showKey(c: ConsoleContext): Promise<ConsoleAnswer> {
  try {
    const key = await findKey(c, String(c.req.params.keyId));
    if (!key) return listView(c, [notice('error', 'API key not found.')], 404);
    return { page: editView(c, key) };
  } catch (err) {
    if (err instanceof ApiRefusal) return listView(c, [notice('error', err.message)], err.status);
    throw err;
  }
}

export async function updateKey(c: ConsoleContext): Promise<ConsoleAnswer> {
  const id = String(c.req.params.keyId);
  const body: Record<string, unknown> = { name: field(c.form, 'name') };
  const scopes = fieldList(c.form, 'scopes');
  const key = await findKey(c, id).catch(() => undefined);
  // Only a change of scopes is sent: the same list again is no narrowing.
  if (key && (scopes.length !== key.scopes.length || scopes.some((s) => !(key.scopes as string[]).includes(s)))) body.scopes = scopes;
  try {
    await c.api.call('PATCH', `/api-keys/${encodeURIComponent(id)}`, { body });
    return { redirect: '/console/keys?done=key-updated' };
  } catch (err) {
    if (err instanceof ApiRefusal && key) return { page: editView(c, key, [notice('error', err.message)]), status: err.status };
    if (err instanceof ApiRefusal) return listView(c, [notice('error', err.message)], err.status);
    throw err;
  }
}

export async function confirmRevokeKey(c: ConsoleContext): Promise<ConsoleAnswer> {
  const key = await findKey(c, String(c.req.params.keyId)).catch((err: unknown) => {
    if (err instanceof ApiRefusal) return undefined;
    throw err;
  });
  if (!key) return listView(c, [notice('error', 'API key not found.')], 404);
  return {
    page: keysPage(c, html`<section class="card" aria-labelledby="revoke-key">
<h2 id="revoke-key">Revoke “${key.name}”?</h2>
<p>Every request made with <code>${key.prefix}…</code> will be refused (401) from now on. A revoked key cannot be restored.</p>
<form method="post" action="/console/keys/${key.id}/revoke">
${formFields(c.csrf)}
<button type="submit" class="danger" data-disable-on-submit>Revoke the key</button>
<a href="/console/keys">Cancel</a>
</form>
</section>`),
  };
}

export async function revokeKey(c: ConsoleContext): Promise<ConsoleAnswer> {
  const id = String(c.req.params.keyId);
  try {
    await c.api.call('DELETE', `/api-keys/${encodeURIComponent(id)}`);
  } catch (err) {
    if (err instanceof ApiRefusal) return listView(c, [notice('error', err.message)], err.status);
    throw err;
  }
  return { redirect: field(c.form, 'then') === 'create' ? '/console/keys?done=key-revoked-create#create-key' : '/console/keys?done=key-revoked' };
}
