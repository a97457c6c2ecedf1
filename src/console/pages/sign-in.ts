import { html, type Html } from '../html.js';
import { formFields, notice, publicPage } from '../layout.js';

/** The sign-in form: a member token, pasted. The other way in is a link an operator prints. */
export function signInPage(csrf: string, problem?: string, info?: string): Html {
  return publicPage('Sign in', html`${problem === undefined ? '' : notice('error', problem)}
${info === undefined ? '' : notice('info', info)}
<form method="post" action="/console/sign-in" class="card narrow">
${formFields(csrf)}
<p>Sign in with your member access token (<code>wsm_live_…</code>). It stays on this server: the console keeps a session, never the token.</p>
<label for="token">Member token</label>
<input id="token" name="token" type="password" autocomplete="off" spellcheck="false" required>
<button type="submit" data-disable-on-submit>Sign in</button>
</form>
<p class="hint">No token? An operator can print you a one-time sign-in link: <code>workspace-api console link --workspace &lt;workspace id&gt; --user &lt;your user id&gt;</code>.</p>`);
}

/**
 * What a sign-in link opens: a button, not a sign-in. A mail scanner that fetches the link spends
 * nothing; the member's click posts the form.
 */
export function linkPage(action: string, csrf: string): Html {
  return publicPage('Sign in with a link', html`<form method="post" action="${action}" class="card narrow">
${formFields(csrf)}
<p>This one-time link signs you in to the workspace console. It works once, within 10 minutes of being printed.</p>
<button type="submit" data-disable-on-submit>Sign in</button>
</form>`);
}

/** A link that cannot sign anyone in, or sign-in refused over plain HTTP. */
export function refusedPage(title: string, problem: string): Html {
  return publicPage(title, html`${notice('error', problem)}<p><a href="/console/sign-in">Sign in with a member token</a></p>`);
}
