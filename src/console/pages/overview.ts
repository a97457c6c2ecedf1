import type { ConsoleAnswer, ConsoleContext } from '../console-context.js';
import { html } from '../html.js';
import { page } from '../layout.js';

/** The workspace at a glance. */
export async function overview(c: ConsoleContext): Promise<ConsoleAnswer> {
  const m = c.member;
  const body = html`<section class="card" aria-labelledby="workspace">
<h2 id="workspace">Workspace</h2>
<dl class="facts">
<dt>Name</dt><dd>${m.workspace_name}</dd>
<dt>Workspace id</dt><dd><code>${m.workspace_id}</code></dd>
<dt>Signed in as</dt><dd>${m.user_name} (${m.user_email}), ${m.role}</dd>
</dl>
</section>`;
  return Promise.resolve({ page: page({ title: 'Overview', section: 'overview', member: m, csrf: c.csrf, body }) });
}
