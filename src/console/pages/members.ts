import { ApiRefusal, type Schemas } from '../admin-api.js';
import { field, queryValue, type ConsoleAnswer, type ConsoleContext } from '../console-context.js';
import { html, when, type Html } from '../html.js';
import { formFields, notice, page } from '../layout.js';
import { everyItem } from './lists.js';
import { noticeFor } from './notices.js';

type Member = Schemas['WorkspaceMember'];

function membersPage(c: ConsoleContext, title: string, body: Html, notices: Html[] = []): Html {
  return page({ title, section: 'members', member: c.member, csrf: c.csrf, body, notices });
}

function roleForm(c: ConsoleContext, m: Member): Html {
  const other = m.role === 'owner' ? 'member' : 'owner';
  return html`<form method="post" action="/console/members/${m.user_id}" class="inline">
${formFields(c.csrf)}
<input type="hidden" name="role" value="${other}">
${m.role === 'owner'
    ? html`<label class="check"><input type="checkbox" name="revoke_keys" value="true"> also revoke the API keys they created</label>`
    : ''}
<button type="submit" class="secondary" data-disable-on-submit>Make ${other}</button>
</form>`;
}

async function listView(c: ConsoleContext, notices: Html[] = [], status = 200): Promise<ConsoleAnswer> {
  let members: Member[];
  try {
    members = await everyItem<Member>(c.api, '/members');
  } catch (err) {
    if (err instanceof ApiRefusal) return { page: membersPage(c, 'Members', html``, [...notices, notice('error', err.message)]), status: err.status };
    throw err;
  }
  const owner = c.member.role === 'owner';
  const rows = members.map((m) => html`<tr>
<td>${m.name}${m.user_id === c.member.user_id ? ' (you)' : ''}</td>
<td>${m.email}</td>
<td>${m.role}</td>
<td>${when(m.joined_at)}</td>
${owner ? html`<td class="actions">${roleForm(c, m)} <a href="/console/members/${m.user_id}/remove">Remove…</a></td>` : ''}
</tr>`);
  const done = noticeFor(queryValue(c.req, 'done'));
  const body = html`<table>
<caption>Members of the workspace</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Joined</th>${owner ? html`<th scope="col"><span class="visually-hidden">Actions</span></th>` : ''}</tr></thead>
<tbody>${rows}</tbody>
</table>
<section class="card" aria-labelledby="add-member">
<h2 id="add-member">Adding someone</h2>
<p>People are added by an operator of the service, on its command line:</p>
<pre tabindex="0"><code>workspace-api user create --email &lt;email&gt; --name &lt;name&gt;
workspace-api member add --workspace ${c.member.workspace_id} --user &lt;user id&gt; --role member</code></pre>
</section>`;
  return { page: membersPage(c, 'Members', body, [...(done ? [done] : []), ...notices]), status };
}

export const listMembers = (c: ConsoleContext): Promise<ConsoleAnswer> => listView(c);

export async function updateMember(c: ConsoleContext): Promise<ConsoleAnswer> {
  const body: Record<string, unknown> = { role: field(c.form, 'role') };
  if (field(c.form, 'revoke_keys') === 'true') body.revoke_keys = true;
  try {
    await c.api.call('PATCH', `/members/${encodeURIComponent(String(c.req.params.userId))}`, { body });
  } catch (err) {
    if (err instanceof ApiRefusal) return listView(c, [notice('error', err.message)], err.status);
    throw err;
  }
  return { redirect: '/console/members?done=member-updated' };
}

export async function confirmRemoveMember(c: ConsoleContext): Promise<ConsoleAnswer> {
  const id = String(c.req.params.userId);
  let members: Member[];
  try {
    members = await everyItem<Member>(c.api, '/members');
  } catch (err) {
    if (err instanceof ApiRefusal) return listView(c, [notice('error', err.message)], err.status);
    throw err;
  }
  const m = members.find((x) => x.user_id === id);
  if (!m) return listView(c, [notice('error', 'Member not found.')], 404);
  return {
    page: membersPage(c, `Remove ${m.name}?`, html`<section class="card">
<p>${m.name} (${m.email}) leaves the workspace. <strong>Every API key they created and every member token they hold is revoked for good</strong>: integrations using those keys stop at once, and adding them again later starts them with none.</p>
<form method="post" action="/console/members/${m.user_id}/remove">
${formFields(c.csrf)}
<button type="submit" class="danger" data-disable-on-submit>Remove ${m.name}</button>
<a href="/console/members">Cancel</a>
</form>
</section>`),
  };
}

export async function removeMember(c: ConsoleContext): Promise<ConsoleAnswer> {
  try {
    await c.api.call('DELETE', `/members/${encodeURIComponent(String(c.req.params.userId))}`);
  } catch (err) {
    if (err instanceof ApiRefusal) return listView(c, [notice('error', err.message)], err.status);
    throw err;
  }
  return { redirect: '/console/members?done=member-removed' };
}
