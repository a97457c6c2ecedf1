import { randomUUID } from 'node:crypto';

/** One import record, as a line of the import format. */
type ImportRecord = { type: string; id: string } & Record<string, unknown>;

/** One move of the story: the records to import (whole records, state changed) and what it shows. */
export interface Step {
  /** What a person watching sees, e.g. `article "…" DRAFT → PROCESSING`. */
  caption: string;
  records: ImportRecord[];
}

const TOPICS = [
  { name: 'AI search visibility', keywords: [['ai search visibility', 2400, 38], ['brand mentions in chatgpt', 590, 21], ['llm seo', 1300, 45]] },
  { name: 'Customer onboarding', keywords: [['customer onboarding checklist', 3600, 33], ['saas onboarding emails', 880, 27]] },
  { name: 'Pricing pages', keywords: [['saas pricing page examples', 1900, 41], ['pricing page best practices', 720, 36]] },
  { name: 'Churn reduction', keywords: [['reduce churn saas', 1600, 47], ['churn survey questions', 1000, 25]] },
] as const;

const PERSONAS = ['Marketing lead', 'Head of growth', 'Content strategist', 'Founder'] as const;

type Random = () => number;

function pick<T>(items: readonly T[], random: Random): T {
  return items[Math.floor(random() * items.length)] as T;
}

function slugOf(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

/**
 * One realistic run of the content pipeline, with fresh records: a topic is researched, its site
 * crawled, a research batch finds ideas, a persona is analysed, an agent writes an article that is
 * then published, and the topic ends up covered. The first step creates the records (those whose
 * event reports their first state announce it); every later step changes one status or stage and
 * sends one webhook event, except a research batch starting to process (its event reports only
 * completion and failure). Some batches and agent tasks fail, as they do.
 */
export function* pipelineStory(clock: () => Date, random: Random = Math.random): Generator<Step> {
  const at = (): string => clock().toISOString();
  const subject = pick(TOPICS, random);
  const persona = pick(PERSONAS, random);
  const run = randomUUID().slice(0, 4);
  const created = at();
  const keywords = subject.keywords.map(([keyword, msv, kd]) => ({ keyword, msv, kd }));
  const title = `${subject.name}: a practical guide for ${persona.toLowerCase()}s (${run})`;

  const topic: ImportRecord = {
    type: 'topic', id: randomUUID(), name: `${subject.name} (${run})`, stage: 'PROCESSING', keywords,
    msv_badge: 'MEDIUM', kd_badge: 'MEDIUM', coverage: 0, created_at: created,
  };
  const site: ImportRecord = {
    type: 'site', id: randomUUID(), url: `https://www.example.com/${slugOf(subject.name)}-${run}/sitemap.xml`, kind: 'sitemap',
    url_count: 40, last_fetched_at: created, processing: { total: 40, ready: 0, failed: 0, completed: false }, created_at: created,
  };
  const iq: ImportRecord = {
    type: 'iq_record', id: randomUUID(), kind: 'persona', title: `${persona} (${run})`, description: `Reads about ${subject.name.toLowerCase()}.`,
    content: null, stage: 'PROCESSING', is_default: false, created_at: created,
    metadata: { job_title: persona, seniority: 'director', industries: ['software'], goals: [`Win on ${subject.name.toLowerCase()}`], pain_points: ['Too little time'], objections: ['Another tool to learn'] },
  };
  const batch: ImportRecord = {
    type: 'research_batch', id: randomUUID(), name: `Ideas for ${subject.name} (${run})`, status: 'QUEUED', topic_id: topic.id,
    buyer_stage: 'consideration', persona_name: persona, source: 'simulator', agent_log: [], research_log: null, created_at: created,
  };
  const agentId = '6f1c2b9e-3a57-4d8e-9b0a-5c4d3e2f1a00';
  const task: ImportRecord = {
    type: 'agent_task', id: randomUUID(), name: `Write: ${title}`, status: 'QUEUED',
    agent: { id: agentId, name: 'Article writer', icon: 'pen', short_description: 'Writes an article from an idea' },
    inputs: { topic_id: topic.id }, outputs: null, usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 },
    execution_duration: null, started_at: null, ended_at: null, created_at: created,
  };
  const article: ImportRecord = {
    type: 'article', id: randomUUID(), title, buyer_stage: 'consideration', status: 'DRAFT', topic_id: topic.id,
    keywords: keywords.map((k) => k.keyword), source: 'simulator', config: { autowrite: true, planned_for: null, planned_time: null },
    research_batch_id: batch.id, created_at: created,
  };

  yield { caption: `created topic, site, persona, research batch, agent task and article for "${subject.name}" (${run})`, records: [topic, site, iq, batch, task, article] };

  const change = (record: ImportRecord, field: 'status' | 'stage', next: string, extra: Record<string, unknown> = {}): Step => {
    const previous = record[field] as string;
    Object.assign(record, extra, { [field]: next });
    // Agent tasks have no updated_at; their started_at / ended_at tell the time.
    if (record.type !== 'agent_task') record.updated_at = at();
    const label = record.type === 'site' ? `site ${record.url as string}` : `${record.type} "${(record.name ?? record.title) as string}"`;
    return { caption: `${label}: ${previous} → ${next}`, records: [record] };
  };

  yield change(topic, 'stage', 'READY', { msv_badge: 'HIGH', kd_badge: 'MEDIUM' });
  yield change(batch, 'status', 'PROCESSING', { agent_log: [{ at: at(), message: 'Research started' }] });

  // A site's "status" is its processing outcome: it changes when processing completes.
  const failed = Math.floor(random() * 3);
  const previousState = 'processing';
  Object.assign(site, { processing: { total: 40, ready: 40 - failed, failed, completed: true }, last_fetched_at: at(), updated_at: at() });
  yield { caption: `site ${site.url as string}: ${previousState} → completed (${failed} pages failed)`, records: [site] };

  const batchFails = random() < 0.15;
  if (batchFails) {
    yield change(batch, 'status', 'FAILED', { agent_log: [...(batch.agent_log as object[]), { at: at(), message: 'Search provider timed out' }] });
  } else {
    const ideas: ImportRecord[] = [1, 2].map((n) => ({
      type: 'idea', id: randomUUID(), title: `${subject.name}: idea ${n} (${run})`, topic_id: topic.id,
      keywords: [subject.keywords[0][0]], buyer_stage: 'consideration', persona_name: persona, research_batch_id: batch.id, created_at: at(),
    }));
    const step = change(batch, 'status', 'COMPLETED', { agent_log: [...(batch.agent_log as object[]), { at: at(), message: 'Research completed: 2 ideas' }] });
    yield { caption: step.caption, records: [...ideas, ...step.records] };
  }

  yield change(iq, 'stage', 'READY', { content: `${persona}s care about results they can show.` });
  const startedAt = at();
  yield change(task, 'status', 'RUNNING', { started_at: startedAt });
  yield change(article, 'status', 'PROCESSING');

  const taskFails = random() < 0.1;
  const ended = clock();
  const duration = Math.max(0, ended.getTime() - Date.parse(startedAt));
  if (taskFails) {
    yield change(task, 'status', 'FAILED', { ended_at: ended.toISOString(), execution_duration: duration, outputs: { error: 'Model quota exceeded' } });
    yield change(article, 'status', 'FAILED');
    return;
  }
  const input = 1_000 + Math.floor(random() * 2_000);
  const output = 2_000 + Math.floor(random() * 4_000);
  yield change(task, 'status', 'SUCCEEDED', {
    ended_at: ended.toISOString(), execution_duration: duration, outputs: { article_id: article.id },
    usage: { input_tokens: input, output_tokens: output, total_tokens: input + output },
  });
  const slug = slugOf(title);
  yield change(article, 'status', 'GENERATED', {
    written_on: at(), body: `<h1>${title}</h1><p>Written by the simulator.</p>`, slug, permalink: `/blog/${slug}`,
    meta_title: title.slice(0, 60), meta_description: `A guide to ${subject.name.toLowerCase()}.`,
  });
  yield change(article, 'status', 'PUBLISHED', { published_on: at(), post_url: `https://www.example.com/blog/${slug}` });
  yield change(topic, 'stage', 'COMPLETED', { coverage: 60 + Math.floor(random() * 40) });
}
