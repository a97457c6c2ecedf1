import { randomUUID } from 'node:crypto';
import { html, type Html } from './html.js';
import { CSRF_FIELD } from './csrf.js';
import type { ConsoleMember } from '../keys/console-sessions.js';

export type Section = 'overview' | 'keys' | 'webhooks' | 'members' | 'audit';

const SECTIONS: Array<{ id: Section; label: string; href: string }> = [
  { id: 'overview', label: 'Overview', href: '/console' },
  { id: 'keys', label: 'API keys', href: '/console/keys' },
  { id: 'webhooks', label: 'Webhooks', href: '/console/webhooks' },
  { id: 'members', label: 'Members', href: '/console/members' },
  { id: 'audit', label: 'Audit log', href: '/console/audit' },
];

/** The hidden fields of every form that writes: its CSRF token and, for API writes, its own Idempotency-Key. */
export function formFields(csrf: string, options: { idempotent?: boolean } = {}): Html {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${csrf}">${options.idempotent
    ? html`<input type="hidden" name="idempotency_key" value="${randomUUID()}">`
    : ''}`;
}

/** A notice at the top of the page: `error` for a refusal (announced to screen readers), `info` otherwise. */
export function notice(kind: 'error' | 'info', text: string | Html): Html {
  return kind === 'error'
    ? html`<div class="notice notice-error" role="alert">${text}</div>`
    : html`<div class="notice notice-info" role="status">${text}</div>`;
}

function document(title: string, header: Html, main: Html): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Workspace console</title>
<link rel="stylesheet" href="/console/assets/console.css">
<script src="/console/assets/console.js" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
${header}
<main id="main">
${main}
</main>
</body>
</html>
`;
}

/** A page of a signed-in member: the navigation, who is signed in, and sign-out. */
export function page(input: { title: string; section: Section; member: ConsoleMember; csrf: string; body: Html; notices?: Html[] }): Html {
  const { member } = input;
  const header = html`<header class="top">
<div class="brand">Workspace console <span class="workspace">${member.workspace_name}</span></div>
<nav aria-label="Console">
<ul>${SECTIONS.map((s) => html`<li><a href="${s.href}"${s.id === input.section ? html` aria-current="page"` : ''}>${s.label}</a></li>`)}</ul>
</nav>
<form method="post" action="/console/sign-out" class="sign-out">
${formFields(input.csrf)}
<span class="who">${member.user_name} (${member.role})</span>
<button type="submit" class="secondary">Sign out</button>
</form>
</header>`;
  return document(input.title, header, html`<h1>${input.title}</h1>
${input.notices ?? []}
${input.body}`);
}

/** A page outside a session: sign-in, a link's button, a refusal. */
export function publicPage(title: string, body: Html): Html {
  return document(title, html`<header class="top"><div class="brand">Workspace console</div></header>`, html`<h1>${title}</h1>
${body}`);
}
