// A typed client for the Workspace Read API with openapi-typescript + openapi-fetch, calling every
// read operation once. Generate the types first (see ../README.md):
//
//   npx openapi-typescript http://127.0.0.1:3000/openapi.json -o generated/schema.d.ts
//   WORKSPACE_API_URL=http://127.0.0.1:3000 WORKSPACE_API_KEY=wsk_live_... npx tsx client.ts
import createClient from 'openapi-fetch';
import type { components, paths } from './generated/schema.js';

type Envelope<T> = { code: number; messages: string; data: T };
type Answer<T> = { data?: T; error?: unknown; response: Response };

const baseUrl = process.env.WORKSPACE_API_URL ?? 'http://127.0.0.1:3000';
const apiKey = process.env.WORKSPACE_API_KEY;
if (!apiKey) throw new Error('Set WORKSPACE_API_KEY to an API key (wsk_live_...).');

const client = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${apiKey}` } });

/** Fails on any non-2xx answer: the error body is the `{code, messages, data}` envelope. */
async function read<T>(label: string, pending: Promise<Answer<T>>): Promise<T> {
  const { data, error, response } = await pending;
  if (error !== undefined || data === undefined) {
    throw new Error(`${label}: HTTP ${response.status} ${JSON.stringify(error)}`);
  }
  console.log(`${label} → ${response.status}`);
  return data;
}

/** First item of a list answer, for the "get one" call that follows it (none when the list is empty). */
const firstId = (list: Envelope<{ items: Array<{ id: string }> }>): string | undefined => list.data.items[0]?.id;

async function main(): Promise<void> {
  // The key, its workspace, plan and usage.
  const me: components['schemas']['MeEnvelope'] = await read('getMe', client.GET('/api/v1/me'));
  console.log(`  key "${me.data.key.name}" of workspace "${me.data.workspace.name}", scopes ${me.data.key.scopes.join(', ')}`);
  await read('getWorkspace', client.GET('/api/v1/workspace'));
  await read('getWorkspacePlan', client.GET('/api/v1/workspace/plan'));
  await read('getWorkspaceUsage', client.GET('/api/v1/workspace/usage'));

  // AI visibility.
  const prompts = await read('listPrompts', client.GET('/api/v1/visibility/prompts', { params: { query: { range: '30d', limit: 5 } } }));
  const prompt = firstId(prompts);
  if (prompt) {
    const analytics = await read('getPromptAnalytics',
      client.GET('/api/v1/visibility/prompts/{prompt}', { params: { path: { prompt }, query: { range: '7d', alpha: 0.05 } } }));
    const mention = analytics.data.overview.mention_rate;
    console.log(`  mention rate ${mention.current ?? 'n/a'} (${mention.counts.current.hits}/${mention.counts.current.total} answers), `
      + `change ${mention.delta ?? 'n/a'}: ${mention.significance?.significant ? 'significant' : 'not significant'} (p = ${mention.significance?.p_value ?? 'n/a'})`);
  }
  await read('getVisibilitySetup', client.GET('/api/v1/visibility/setup'));
  await read('getVisibilityRates', client.GET('/api/v1/visibility/rates', { params: { query: { range: '30d' } } }));
  await read('getVisibilityCompetitors', client.GET('/api/v1/visibility/competitors', { params: { query: { range: '30d' } } }));
  await read('listCitedPages', client.GET('/api/v1/visibility/cited-pages', { params: { query: { limit: 5 } } }));
  const answers = await read('listAnswers', client.GET('/api/v1/visibility/answers', { params: { query: { limit: 5 } } }));
  const answer = firstId(answers);
  if (answer) await read('getAnswer', client.GET('/api/v1/visibility/answers/{answer}', { params: { path: { answer } } }));
  // Exports are files, not envelopes: read them as text.
  const csv = await read('exportAnswers',
    client.GET('/api/v1/visibility/exports/answers', { params: { query: { range: '7d', format: 'csv' } }, parseAs: 'text' }));
  console.log(`  answers export: ${csv.split('\r\n').length - 1} CSV lines`);
  await read('exportAnswersNdjson',
    client.GET('/api/v1/visibility/exports/answers.ndjson', { params: { query: { range: '7d' } }, parseAs: 'text' }));
  await read('exportDailyRates', client.GET('/api/v1/visibility/exports/daily-rates', { parseAs: 'text' }));
  await read('exportDailyRatesNdjson', client.GET('/api/v1/visibility/exports/daily-rates.ndjson', { parseAs: 'text' }));

  // Event feeds: the events the webhooks deliver, to catch up from a cursor kept between runs.
  const mapEvents = await read('listContentMapEvents', client.GET('/api/v1/content-map/events', { params: { query: { limit: 5 } } }));
  console.log(`  ${mapEvents.data.items.length} content-map events; resume from ${mapEvents.data.next_cursor}`);

  // Content map.
  const topics = await read('listTopics', client.GET('/api/v1/content-map/topics', { params: { query: { limit: 5 } } }));
  const topic = firstId(topics);
  if (topic) await read('getTopic', client.GET('/api/v1/content-map/topics/{topic}', { params: { path: { topic } } }));
  const sites = await read('listSites', client.GET('/api/v1/content-map/sites', { params: { query: { limit: 5 } } }));
  const site = firstId(sites);
  if (site) await read('getSite', client.GET('/api/v1/content-map/sites/{site}', { params: { path: { site } } }));
  const pages = await read('listPages', client.GET('/api/v1/content-map/pages', { params: { query: { limit: 5 } } }));
  const page = firstId(pages);
  if (page) await read('getPage', client.GET('/api/v1/content-map/pages/{page}', { params: { path: { page } } }));

  // Content.
  const articles = await read('listArticles', client.GET('/api/v1/content/articles', { params: { query: { limit: 5 } } }));
  const article = firstId(articles);
  if (article) await read('getArticle', client.GET('/api/v1/content/articles/{article}', { params: { path: { article } } }));
  const ideas = await read('listIdeas', client.GET('/api/v1/content/ideas', { params: { query: { limit: 5 } } }));
  const idea = firstId(ideas);
  if (idea) await read('getIdea', client.GET('/api/v1/content/ideas/{idea}', { params: { path: { idea } } }));
  // Follow a feed the way a client catches up on missed webhooks: read on while has_more is true.
  let cursor: string | undefined;
  for (let more = true; more; ) {
    const page = await read('listContentEvents',
      client.GET('/api/v1/content/events', { params: { query: { event_type: 'content.status_updated', limit: 50, ...(cursor ? { cursor } : {}) } } }));
    for (const event of page.data.items) console.log(`  ${event.timestamp} ${event.event} ${event.data.id} ${event.data.status}`);
    cursor = page.data.next_cursor;
    more = page.data.has_more;
  }
  // Research batches and agent tasks as their webhook events carry them: what changed since a
  // given instant, oldest change first, is how a receiver catches up on events it missed.
  const since = { order: 'updated_at' as const, updated_after: '2026-01-01T00:00:00Z', limit: 5 };
  const batches = await read('listResearchBatches', client.GET('/api/v1/content/research-batches', { params: { query: since } }));
  const researchBatch = firstId(batches);
  if (researchBatch) {
    await read('getResearchBatch', client.GET('/api/v1/content/research-batches/{research_batch}', { params: { path: { research_batch: researchBatch } } }));
  }
  const tasks = await read('listAgentTasks', client.GET('/api/v1/content/agent-tasks', { params: { query: since } }));
  const agentTask = firstId(tasks);
  if (agentTask) await read('getAgentTask', client.GET('/api/v1/content/agent-tasks/{agent_task}', { params: { path: { agent_task: agentTask } } }));

  // Brand intelligence.
  const products = await read('listProducts', client.GET('/api/v1/iq/products', { params: { query: { limit: 5 } } }));
  const product = firstId(products);
  if (product) await read('getProduct', client.GET('/api/v1/iq/products/{product}', { params: { path: { product } } }));
  const personas = await read('listPersonas', client.GET('/api/v1/iq/personas', { params: { query: { limit: 5 } } }));
  const persona = firstId(personas);
  if (persona) await read('getPersona', client.GET('/api/v1/iq/personas/{persona}', { params: { path: { persona } } }));
  const voices = await read('listBrandVoices', client.GET('/api/v1/iq/brand-voice', { params: { query: { limit: 5 } } }));
  const voice = firstId(voices);
  if (voice) await read('getBrandVoice', client.GET('/api/v1/iq/brand-voice/{voice}', { params: { path: { voice } } }));
  const contentTypes = await read('listContentTypes', client.GET('/api/v1/iq/content-types', { params: { query: { limit: 5 } } }));
  const contentType = firstId(contentTypes);
  if (contentType) {
    await read('getContentType', client.GET('/api/v1/iq/content-types/{content_type}', { params: { path: { content_type: contentType } } }));
  }
  const guidelines = await read('listVisualGuidelines', client.GET('/api/v1/iq/visual-guidelines', { params: { query: { limit: 5 } } }));
  const guideline = firstId(guidelines);
  if (guideline) {
    await read('getVisualGuideline',
      client.GET('/api/v1/iq/visual-guidelines/{visual_guideline}', { params: { path: { visual_guideline: guideline } } }));
  }
  await read('listIqEvents', client.GET('/api/v1/iq/events', { params: { query: { event_type: 'iq.status_updated' } } }));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
