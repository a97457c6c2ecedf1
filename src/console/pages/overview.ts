import { ApiRefusal, type Schemas } from '../admin-api.js';
import type { ConsoleAnswer, ConsoleContext } from '../console-context.js';
import { html, type Html } from '../html.js';
import { notice, page } from '../layout.js';
import { usageChart } from '../usage-chart.js';

/** The rate limit's headroom now: a meter, and the same in words. */
function headroom(limit: Schemas['RateLimitHeadroom']): Html {
  return html`<section class="card" aria-labelledby="headroom">
<h2 id="headroom">Rate limit</h2>
<p><label for="headroom-meter">Requests left in the current ${limit.window_seconds}-second window</label>
<meter id="headroom-meter" class="meter" min="0" max="${limit.limit}" low="${Math.ceil(limit.limit / 10)}" optimum="${limit.limit}" value="${limit.remaining}">${limit.remaining} of ${limit.limit}</meter></p>
<p>${limit.remaining} of ${limit.limit} left${limit.reset_seconds > 0 ? `; the next slot frees in ${limit.reset_seconds} s` : ''}. Shared by every key of the workspace; the console's own pages never count.</p>
</section>`;
}

/** The plan's name, subscription status, allowances and billing period. */
function planFacts(plan: Schemas['WorkspacePlan'] | null): Html {
  if (plan === null) return html`<dt>Plan</dt><dd>None on record</dd>`;
  return html`<dt>Plan</dt><dd>${plan.name} (subscription ${plan.status.replace('_', ' ')})</dd>
<dt>Allowances</dt><dd>${plan.limits.tracked_prompts ?? 'unlimited'} tracked prompts, ${plan.limits.articles_per_month ?? 'unlimited'} articles a month</dd>
<dt>Billing period</dt><dd>${plan.current_period.start} to ${plan.current_period.end}</dd>`;
}

/** The workspace at a glance: who you are in it, its plan, its requests per day, the rate limit's headroom. */
export async function overview(c: ConsoleContext): Promise<ConsoleAnswer> {
  const m = c.member;
  const notices: Html[] = [];
  let usage: Schemas['DailyUsage'] | undefined;
  try {
    usage = (await c.api.call<Schemas['DailyUsage']>('GET', '/usage/daily', { query: { days: '30' } })).data;
  } catch (err) {
    if (!(err instanceof ApiRefusal)) throw err;
    notices.push(notice('error', err.message));
  }
  const body = html`<section class="card" aria-labelledby="workspace">
<h2 id="workspace">Workspace</h2>
<dl class="facts">
<dt>Name</dt><dd>${m.workspace_name}</dd>
<dt>Workspace id</dt><dd><code>${m.workspace_id}</code></dd>
<dt>Signed in as</dt><dd>${m.user_name} (${m.user_email}), ${m.role}</dd>
${usage === undefined ? '' : planFacts(usage.plan)}
</dl>
</section>
${usage === undefined ? '' : html`<section class="card" aria-labelledby="usage">
<h2 id="usage">Requests per day</h2>
${usageChart(usage.items)}
</section>
${headroom(usage.rate_limit)}`}`;
  return { page: page({ title: 'Overview', section: 'overview', member: m, csrf: c.csrf, body, notices }) };
}
