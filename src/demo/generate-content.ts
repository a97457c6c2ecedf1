import { DAY_MS } from '../store/timestamp.js';
import { demoId, seededRandom, type DemoDataOptions } from './demo-random.js';
import { demoBrandPages } from './generate-visibility.js';

// The content-map, content and brand-intelligence demo of "Acme Analytics", the brand of the
// visibility demo: its topics are the visibility demo's prompt categories, and its site's pages
// include every brand page the demo answers cite, so cited pages link to content-map pages.

const DOMAIN = 'acme-analytics.example';

interface TopicSeed {
  /** The visibility demo category whose prompts this topic covers. */
  category: string;
  keywords: Array<[keyword: string, msv: number, kd: number]>;
  ideas: string[];
}

const TOPICS: readonly TopicSeed[] = [
  {
    category: 'Product analytics',
    keywords: [['product analytics', 14800, 68], ['feature adoption tracking', 1300, 34], ['funnel analysis tool', 2400, 52], ['retention cohort analysis', 880, 41]],
    ideas: ['Feature adoption metrics every PM should track', 'Funnels vs paths: which analysis answers which question', 'Autocapture or a tracking plan? Trade-offs explained', 'Finding the onboarding step that loses users'],
  },
  {
    category: 'Pricing & plans',
    keywords: [['product analytics pricing', 1900, 38], ['free product analytics', 2900, 45], ['analytics cost per event', 320, 22]],
    ideas: ['What 1 million events a month really costs', 'Seat-based vs usage-based analytics pricing', 'Free tiers compared: where the limits bite'],
  },
  {
    category: 'Integrations',
    keywords: [['segment analytics integration', 1600, 47], ['product analytics bigquery', 720, 39], ['react native analytics sdk', 1000, 36]],
    ideas: ['Sending product events to your warehouse without ETL', 'Connecting product analytics to your CRM', 'Server-side tracking from Node.js, step by step'],
  },
  {
    category: 'Alternatives & comparisons',
    keywords: [['brightlytics alternatives', 1300, 29], ['chartwise vs acme analytics', 210, 12], ['best product analytics tools', 6600, 71]],
    ideas: ['Brightlytics alternatives for small teams', 'Chartwise vs Acme Analytics: an honest comparison', 'The product analytics shortlist for 2026'],
  },
  {
    category: 'Guides & best practices',
    keywords: [['north star metric', 9900, 55], ['tracking plan template', 1600, 31], ['saas retention benchmarks', 1300, 43], ['customer lifetime value formula', 5400, 49]],
    ideas: ['How to choose a north star metric', 'A tracking plan template you can copy', 'Day-30 retention benchmarks for SaaS', 'Calculating customer lifetime value from product data'],
  },
];

// Pages of the brand's site that no demo answer cites.
const OTHER_PAGES = [
  { path: '/', title: 'Acme Analytics: product analytics for growing teams' },
  { path: '/about', title: 'About us | Acme Analytics' },
  { path: '/careers', title: 'Careers | Acme Analytics' },
  { path: '/security', title: 'Security and compliance | Acme Analytics' },
  { path: '/changelog', title: 'Changelog | Acme Analytics' },
];

const PERSONAS = [
  { title: 'Head of Product', job_title: 'Head of Product', seniority: 'director', goals: ['Ship features users adopt', 'Prove product impact on revenue'], pain_points: ['Data requests queue behind engineering', 'Conflicting numbers across tools'], objections: ['Migration effort from the current tool'] },
  { title: 'Growth Marketer', job_title: 'Growth Marketing Manager', seniority: 'manager', goals: ['Improve activation rate', 'Attribute signups to campaigns'], pain_points: ['Funnels break when events change'], objections: ['Price grows with traffic'] },
  { title: 'Data-savvy Founder', job_title: 'Co-founder & CEO', seniority: 'executive', goals: ['Find product-market fit fast'], pain_points: ['No data team yet'], objections: ['Another tool to learn'] },
];

const CONTENT_TYPES = [
  { title: 'How-to guide', format: 'how-to guide', min: 1200, max: 2200, sections: ['The outcome', 'Before you start', 'Steps', 'Common mistakes', 'FAQ'] },
  { title: 'Comparison', format: 'comparison', min: 1500, max: 2500, sections: ['Verdict', 'Feature table', 'Pricing', 'Who should pick which'] },
  { title: 'Benchmark report', format: 'data report', min: 1000, max: 1800, sections: ['Key numbers', 'Method', 'Findings by segment', 'What to do next'] },
];

const AGENTS = {
  research: { name: 'Topic researcher', icon: 'search', short_description: 'Finds questions buyers ask about a topic and turns them into ideas' },
  writer: { name: 'Article writer', icon: 'pen', short_description: 'Writes an article from an idea in the brand voice' },
};

const ARTICLE_STATUSES = ['PUBLISHED', 'PUBLISHED', 'GENERATED', 'PROCESSING', 'DRAFT', 'PUBLISHED', 'FAILED'] as const;
const STAGES = ['awareness', 'consideration', 'decision'] as const;

function slugOf(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60);
}

/**
 * The content demo as import lines: topics, the site and its pages, brand-intelligence records,
 * research batches with their ideas, articles written from those ideas, and the agent tasks that
 * did the work. Dates fall in the `days` before `today`; the same seed gives the same records.
 */
export function* generateContent(options: DemoDataOptions): Generator<string> {
  const random = seededRandom(options.seed ^ 0x0c0ffee);
  const ns = `${options.idNamespace ?? 'demo'}:${options.seed}:content`;
  const id = (name: string): string => demoId(ns, name);
  const end = Math.floor((options.today ?? new Date()).getTime() / DAY_MS) * DAY_MS;
  const span = Math.max(options.days, 14) * DAY_MS;
  /** A time `fraction` of the way through the period, plus up to an hour of jitter. */
  const at = (fraction: number): string => new Date(end - span + Math.floor(fraction * (span - DAY_MS)) + Math.floor(random() * 3_600_000)).toISOString();
  const line = (record: object): string => JSON.stringify(record);

  // Topics: one per visibility category, stages spread over the life cycle.
  const topics = TOPICS.map((t, i) => {
    const coverage = [72, 35, 58, 20, 64][i]!;
    const totalMsv = t.keywords.reduce((sum, k) => sum + k[1], 0);
    const avgKd = t.keywords.reduce((sum, k) => sum + k[2], 0) / t.keywords.length;
    return {
      id: id(`topic:${t.category}`),
      seed: t,
      record: {
        type: 'topic',
        id: id(`topic:${t.category}`),
        name: t.category,
        stage: i === 3 ? 'PROCESSING' : coverage >= 60 ? 'COMPLETED' : 'READY',
        keywords: t.keywords.map(([keyword, msv, kd]) => ({ keyword, msv, kd })),
        msv_badge: totalMsv >= 10000 ? 'HIGH' : totalMsv >= 3000 ? 'MEDIUM' : 'LOW',
        kd_badge: avgKd >= 55 ? 'HIGH' : avgKd >= 35 ? 'MEDIUM' : 'LOW',
        coverage,
        created_at: at(0.02 * i),
        updated_at: at(0.5 + 0.05 * i),
      },
    };
  });
  const topicOf = new Map(topics.map((t) => [t.seed.category, t]));
  for (const t of topics) yield line(t.record);

  // The site: the brand's sitemap, and its pricing page added on its own.
  const sitemapId = id('site:sitemap');
  const pricingSiteId = id('site:pricing');
  const cited = demoBrandPages(options);
  const pages = [
    ...cited.map((p) => ({ url: p.url, title: p.title, topicId: topicOf.get(p.category)?.id ?? null })),
    ...OTHER_PAGES.map((p) => ({ url: `https://${DOMAIN}${p.path}`, title: p.title, topicId: null })),
  ];
  const failed = pages.filter((_, i) => i % 17 === 16).length;
  const processing = pages.length > 3 ? 1 : 0;
  yield line({
    type: 'site',
    id: sitemapId,
    url: `https://${DOMAIN}/sitemap.xml`,
    kind: 'sitemap',
    url_count: pages.length,
    last_fetched_at: at(0.97),
    processing: { total: pages.length, ready: pages.length - failed - processing, failed, completed: processing === 0 },
    created_at: at(0),
    updated_at: at(0.97),
  });
  yield line({
    type: 'site',
    id: pricingSiteId,
    url: `https://${DOMAIN}/pricing`,
    kind: 'page',
    url_count: 1,
    last_fetched_at: at(0.9),
    processing: { total: 1, ready: 1, failed: 0, completed: true },
    created_at: at(0.1),
    updated_at: at(0.9),
  });
  for (const [i, p] of pages.entries()) {
    const status = i % 17 === 16 ? 'FAILED' : i === pages.length - 1 && processing === 1 ? 'PROCESSING' : 'READY';
    yield line({
      type: 'page',
      id: id(`page:${p.url}`),
      url: p.url,
      title: status === 'READY' ? p.title : null,
      site_id: p.url.endsWith('/pricing') ? pricingSiteId : sitemapId,
      topic_id: p.topicId,
      status,
      last_fetched_at: status === 'PROCESSING' ? null : at(0.95),
      created_at: at(0.01 + (0.3 * i) / pages.length),
      updated_at: at(0.95),
    });
  }

  // Brand intelligence: products, personas, the voice, content types and visual guidelines.
  const productId = id('iq:product:tracker');
  yield line({
    type: 'iq_record', id: productId, kind: 'product', title: 'Acme Analytics', is_default: true, stage: 'READY',
    description: 'Product analytics for growing SaaS teams: events, funnels, retention and cohorts.',
    content: '## Acme Analytics\n\nSelf-serve product analytics with autocapture, funnels, retention and a warehouse export.',
    metadata: { category: 'Product analytics', features: ['Autocapture', 'Funnels', 'Retention cohorts', 'Warehouse export'], benefits: ['Answers without a data engineer', 'One source of truth for product metrics'], differentiators: ['Setup in under an hour', 'No per-seat fees'], price_range: '$0–$1,200 per month' },
    product_urls: [`https://${DOMAIN}/product`, `https://${DOMAIN}/pricing`],
    created_at: at(0.01), updated_at: at(0.2),
  });
  yield line({
    type: 'iq_record', id: id('iq:product:warehouse'), kind: 'product', title: 'Acme Warehouse Sync', stage: 'PROCESSING',
    description: 'Streams product events into BigQuery, Snowflake and Redshift.', content: null,
    metadata: { category: 'Reverse ETL and data sync', features: ['Managed schemas', 'Hourly sync'], benefits: ['Product data next to revenue data'], differentiators: [], price_range: null },
    product_urls: [`https://${DOMAIN}/integrations/warehouse`],
    created_at: at(0.92),
  });
  for (const [i, p] of PERSONAS.entries()) {
    yield line({
      type: 'iq_record', id: id(`iq:persona:${p.title}`), kind: 'persona', title: p.title, is_default: i === 0, stage: 'READY',
      description: `${p.job_title} at a B2B SaaS company of 20 to 500 people.`,
      content: `## ${p.title}\n\nGoals: ${p.goals.join('; ')}.`,
      metadata: { job_title: p.job_title, seniority: p.seniority, industries: ['B2B SaaS'], goals: p.goals, pain_points: p.pain_points, objections: p.objections },
      product_id: productId,
      created_at: at(0.05 + 0.02 * i), updated_at: at(0.3),
    });
  }
  yield line({
    type: 'iq_record', id: id('iq:voice'), kind: 'voice', title: 'Acme house voice', is_default: true, stage: 'READY',
    description: 'Confident and plain-spoken; answers first, then the detail.',
    content: '## Voice\n\nWrite like a senior PM explaining to a peer.',
    metadata: { tone_attributes: ['confident', 'plain-spoken', 'practical'], reading_level: 'grade 9', dos: ['Lead with the answer', 'Use real numbers'], donts: ['Hype words', 'Unexplained jargon'] },
    voice_sample_urls: cited.filter((p) => p.url.includes('/blog/')).slice(0, 3).map((p) => p.url),
    created_at: at(0.04), updated_at: at(0.35),
  });
  for (const [i, c] of CONTENT_TYPES.entries()) {
    yield line({
      type: 'iq_record', id: id(`iq:content-type:${c.title}`), kind: 'content_type', title: c.title, is_default: i === 0, stage: i === 2 ? 'PROCESSING' : 'READY',
      description: `The ${c.format} format of the Acme blog.`, content: null,
      metadata: { format: c.format, word_count_min: c.min, word_count_max: c.max, sections: c.sections },
      content_sample_urls: i === 2 ? null : cited.slice(i, i + 2).map((p) => p.url),
      created_at: at(0.06 + 0.01 * i),
    });
  }
  yield line({
    type: 'iq_record', id: id('iq:visuals'), kind: 'visual_guideline', title: 'Acme brand visuals', is_default: true, stage: 'READY',
    description: 'Indigo and slate, Inter everywhere, flat illustrations.', content: '## Visuals\n\nIndigo primary, slate text.',
    metadata: { colors: [{ name: 'Indigo', hex: '#4F46E5' }, { name: 'Slate', hex: '#334155' }, { name: 'Amber', hex: '#F59E0B' }], fonts: ['Inter', 'JetBrains Mono'], image_style: 'flat illustrations, no stock photos' },
    images_urls: [`https://cdn.${DOMAIN}/brand/palette.png`, `https://cdn.${DOMAIN}/brand/illustrations.png`],
    created_at: at(0.03), updated_at: at(0.4),
  });

  // Research batches, one per topic, with their ideas; articles from most ideas; the agent tasks.
  const researcherId = id('agent:researcher');
  const writerId = id('agent:writer');
  let articleIndex = 0;
  for (const [ti, topic] of topics.entries()) {
    const batchId = id(`batch:${topic.seed.category}`);
    const batchStatus = ti === 3 ? 'PROCESSING' : ti === 4 && random() < 0.5 ? 'FAILED' : 'COMPLETED';
    const started = 0.15 + 0.1 * ti;
    const stage = STAGES[ti % STAGES.length]!;
    const persona = PERSONAS[ti % PERSONAS.length]!.title;
    yield line({
      type: 'research_batch', id: batchId, name: `${topic.seed.category}: ${stage} ideas`, status: batchStatus,
      topic_id: topic.id, buyer_stage: stage, persona_name: persona, source: ti % 2 === 0 ? 'topic_cluster' : 'manual',
      agent_log: [
        { at: at(started), message: `Researching questions about ${topic.seed.category.toLowerCase()}` },
        ...(batchStatus === 'PROCESSING' ? [] : [{ at: at(started + 0.01), message: batchStatus === 'FAILED' ? 'Search provider timed out' : `Found ${topic.seed.ideas.length} ideas` }]),
      ],
      research_log: batchStatus === 'COMPLETED' ? { queries: topic.seed.keywords.map((k) => k[0]), sources_consulted: 12 + ti } : null,
      created_at: at(started), updated_at: at(started + 0.01),
    });
    yield line({
      type: 'agent_task', id: id(`task:research:${topic.seed.category}`), agent: { id: researcherId, ...AGENTS.research },
      name: `Research: ${topic.seed.category}`, status: batchStatus === 'PROCESSING' ? 'RUNNING' : batchStatus === 'FAILED' ? 'FAILED' : 'SUCCEEDED',
      inputs: { topic_id: topic.id, buyer_stage: stage },
      outputs: batchStatus === 'COMPLETED' ? { research_batch_id: batchId, ideas: topic.seed.ideas.length } : null,
      usage: { input_tokens: 8200 + 300 * ti, output_tokens: batchStatus === 'PROCESSING' ? 0 : 2100, total_tokens: 8200 + 300 * ti + (batchStatus === 'PROCESSING' ? 0 : 2100) },
      execution_duration: batchStatus === 'PROCESSING' ? null : 95_000 + 7_000 * ti,
      started_at: at(started), ended_at: batchStatus === 'PROCESSING' ? null : at(started + 0.01),
      created_at: at(started),
    });
    if (batchStatus !== 'COMPLETED') continue;
    for (const [ii, title] of topic.seed.ideas.entries()) {
      const ideaId = id(`idea:${title}`);
      const ideaStage = STAGES[(ti + ii) % STAGES.length]!;
      const keywords = [topic.seed.keywords[ii % topic.seed.keywords.length]![0], slugOf(title).split('-').slice(0, 2).join(' ')];
      const ideaAt = started + 0.01 + 0.001 * ii;
      yield line({
        type: 'idea', id: ideaId, title, topic_id: topic.id, keywords, buyer_stage: ideaStage, persona_name: persona,
        research_batch_id: batchId, created_at: at(ideaAt),
      });
      // The last idea of each batch is not written yet.
      if (ii === topic.seed.ideas.length - 1) continue;
      const status = ARTICLE_STATUSES[articleIndex % ARTICLE_STATUSES.length]!;
      articleIndex += 1;
      const written = status === 'PUBLISHED' || status === 'GENERATED';
      const slug = slugOf(title);
      const writeAt = ideaAt + 0.05 + 0.02 * ii;
      yield line({
        type: 'article', id: id(`article:${title}`), title, buyer_stage: ideaStage, status, topic_id: topic.id,
        keywords, source: 'research_batch', research_batch_id: batchId,
        config: { autowrite: ii % 2 === 0, planned_for: new Date(end - Math.floor(span * (1 - writeAt))).toISOString().slice(0, 10), planned_time: ii % 2 === 0 ? '09:00' : null },
        written_on: written ? at(writeAt) : null,
        published_on: status === 'PUBLISHED' ? at(writeAt + 0.02) : null,
        body: written ? `<h1>${title}</h1><p>${topic.seed.category} teams ask this every week. Here is the short answer, then the detail.</p><h2>The short answer</h2><p>Start from the decision you need to make, then pick the metric.</p>` : null,
        cover_image: written ? `https://cdn.${DOMAIN}/covers/${slug}.png` : null,
        slug: status === 'DRAFT' ? null : slug,
        permalink: status === 'DRAFT' ? null : `/blog/${slug}`,
        meta_title: written ? `${title} | Acme Analytics` : null,
        meta_description: written ? `${title}: a practical guide from the Acme Analytics team.` : null,
        post_url: status === 'PUBLISHED' ? `https://${DOMAIN}/blog/${slug}` : null,
        created_at: at(writeAt - 0.01), updated_at: at(status === 'PUBLISHED' ? writeAt + 0.02 : writeAt),
      });
      if (status === 'DRAFT') continue;
      const taskStatus = status === 'PROCESSING' ? 'RUNNING' : status === 'FAILED' ? 'FAILED' : 'SUCCEEDED';
      const output = taskStatus === 'RUNNING' ? 0 : 3400 + 150 * ii;
      yield line({
        type: 'agent_task', id: id(`task:write:${title}`), agent: { id: writerId, ...AGENTS.writer },
        name: `Write: ${title}`, status: taskStatus, inputs: { idea_id: ideaId, content_type: 'how-to guide' },
        outputs: taskStatus === 'SUCCEEDED' ? { article_id: id(`article:${title}`), words: 1500 + 90 * ii } : null,
        usage: { input_tokens: 5200, output_tokens: output, total_tokens: 5200 + output },
        execution_duration: taskStatus === 'RUNNING' ? null : 240_000 + 30_000 * ii,
        started_at: at(writeAt - 0.005), ended_at: taskStatus === 'RUNNING' ? null : at(writeAt),
        created_at: at(writeAt - 0.01),
      });
    }
  }
}
