import { DAY_MS } from '../store/timestamp.js';
import { demoId, demoTimeId, seededRandom, type DemoDataOptions } from './demo-random.js';

// The demo brand: the workspace bootstrapDemo creates is "Acme Analytics (demo)".
const BRAND = { name: 'Acme Analytics', domain: 'acme-analytics.example' };

// strength: how often answers name it; drift: how that changes from the first day to the last.
const COMPETITORS = [
  { name: 'Brightlytics', domain: 'brightlytics.example', strength: 0.5, drift: 0.35 },
  { name: 'Chartwise', domain: 'chartwise.example', strength: 0.46, drift: -0.3 },
  { name: 'Metricly', domain: 'metricly.example', strength: 0.4, drift: 0 },
  { name: 'DataHarbor', domain: 'dataharbor.example', strength: 0.32, drift: 0.1 },
  { name: 'PulseBoard', domain: 'pulseboard.example', strength: 0.24, drift: 0.6 },
  { name: 'Quantive', domain: 'quantive.example', strength: 0.2, drift: -0.2 },
  { name: 'SignalStack', domain: 'signalstack.example', strength: 0.14, drift: 0.25 },
  { name: 'Trendfold', domain: 'trendfold.example', strength: 0.08, drift: 0 },
] as const;

// Mention and citation levels differ by platform, and so does how fast they move.
const PLATFORMS = [
  { platform: 'chatgpt', mention: 0.5, cite: 0.22, drift: 0.25 },
  { platform: 'google_ai_overview', mention: 0.36, cite: 0.34, drift: 0.1 },
  { platform: 'perplexity', mention: 0.46, cite: 0.42, drift: 0.4 },
  { platform: 'gemini', mention: 0.32, cite: 0.14, drift: -0.15 },
  { platform: 'grok', mention: 0.2, cite: 0.06, drift: 0 },
  { platform: 'claude', mention: 0.42, cite: 0.18, drift: 0.2 },
] as const;

interface CategorySeed {
  name: string;
  color: string;
  /** Scales the brand's mention level for prompts of this category. */
  brand: number;
  /** Scales how many competitors answers name. */
  rivals: number;
  brandPage: (slug: string) => { path: string; title: string };
  prompts: readonly string[];
  opening: string;
}

const CATEGORIES: readonly CategorySeed[] = [
  {
    name: 'Product analytics',
    color: '#4F46E5',
    brand: 1.1,
    rivals: 1,
    brandPage: (slug) => ({ path: `/product/${slug}`, title: 'Product analytics for growing teams | Acme Analytics' }),
    opening: 'Several product analytics tools cover this well.',
    prompts: [
      'best product analytics tool for a B2B SaaS startup',
      'how do I track feature adoption in my web app',
      'which analytics platform has the best funnel analysis',
      'tools to measure user retention cohorts',
      'product analytics that works without a data engineer',
      'event tracking tool with autocapture',
      'self-serve analytics for product managers',
      'how to find where users drop off in onboarding',
    ],
  },
  {
    name: 'Pricing & plans',
    color: '#F59E0B',
    brand: 0.85,
    rivals: 0.9,
    brandPage: () => ({ path: '/pricing', title: 'Pricing | Acme Analytics' }),
    opening: 'Pricing varies a lot between vendors, mostly by tracked events and seats.',
    prompts: [
      'cheapest product analytics tool for 1 million events a month',
      'product analytics with a free tier',
      'is Acme Analytics worth the price',
      'analytics tools with transparent pricing',
      'usage-based vs seat-based pricing for analytics software',
      'which analytics vendor offers startup discounts',
      'total cost of running product analytics in house',
      'analytics software without per-seat fees',
    ],
  },
  {
    name: 'Integrations',
    color: '#10B981',
    brand: 0.95,
    rivals: 0.8,
    brandPage: (slug) => ({ path: `/integrations/${slug}`, title: 'Integrations | Acme Analytics Docs' }),
    opening: 'Most analytics platforms ship connectors for the common stacks.',
    prompts: [
      'analytics tool that integrates with Segment',
      'send product events to a data warehouse automatically',
      'analytics with a native Salesforce integration',
      'how to connect product analytics to HubSpot',
      'best analytics SDK for React Native',
      'reverse ETL from product analytics to CRM',
      'analytics tool with a BigQuery export',
      'track server-side events from Node.js',
    ],
  },
  {
    name: 'Alternatives & comparisons',
    color: '#EF4444',
    brand: 0.7,
    rivals: 1.6,
    brandPage: (slug) => ({ path: `/compare/acme-vs-${slug}`, title: 'Acme Analytics compared | Acme Analytics' }),
    opening: 'The usual shortlist for this comparison is fairly stable.',
    prompts: [
      'Brightlytics alternatives for small teams',
      'Acme Analytics vs Chartwise',
      'open source alternatives to Metricly',
      'Brightlytics vs Metricly vs Acme Analytics',
      'what do people switch to from Chartwise',
      'best alternative to DataHarbor for startups',
      'PulseBoard or Acme Analytics for mobile apps',
      'top five product analytics platforms compared',
    ],
  },
  {
    name: 'Guides & best practices',
    color: '#0EA5E9',
    brand: 0.75,
    rivals: 0.6,
    brandPage: (slug) => ({ path: `/blog/${slug}`, title: 'The Acme Analytics blog' }),
    opening: 'There is a well-established playbook for this.',
    prompts: [
      'how to define a north star metric',
      'how to set up a tracking plan',
      'what is a good day-30 retention rate for SaaS',
      'how to measure product-market fit with data',
      'how to run an A/B test on a pricing page',
      'what events should a SaaS app track first',
      'how to build a weekly product metrics review',
      'how to calculate customer lifetime value',
    ],
  },
];

const THIRD_PARTY = [
  { url: 'https://reviews.example/categories/product-analytics', title: 'Best Product Analytics Software: reviews and ratings' },
  { url: 'https://saas-weekly.example/2026/analytics-stack', title: 'The modern analytics stack, explained' },
  { url: 'https://forum.example/t/which-analytics-tool-do-you-use', title: 'Which analytics tool do you use? : r/SaaS' },
  { url: 'https://docs.example/guides/tracking-plans', title: 'Tracking plans: a practical guide' },
  { url: 'https://growth-notes.example/retention-benchmarks', title: 'Retention benchmarks by industry' },
];

function slugOf(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 48)
    .replace(/^-+|-+$/g, '');
}

function clamp(x: number, min = 0.01, max = 0.97): number {
  return Math.min(max, Math.max(min, x));
}

function listOf(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** The category and text of demo prompt `i`: fixed by its index, whatever the seed. */
function promptSeed(i: number): { categoryIndex: number; category: CategorySeed; text: string } {
  const categoryIndex = i % CATEGORIES.length;
  const category = CATEGORIES[categoryIndex]!;
  const round = Math.floor(i / CATEGORIES.length);
  const base = category.prompts[round % category.prompts.length]!;
  const text = round < category.prompts.length ? base : `${base} (variant ${Math.floor(round / category.prompts.length) + 1})`;
  return { categoryIndex, category, text };
}

/**
 * The brand's own pages that demo answers cite, once each, in prompt order, with the category of
 * the prompts citing them: the content demo lists them as content-map pages, so every cited page
 * of the brand links to its content-map page.
 */
export function demoBrandPages(options: Pick<DemoDataOptions, 'prompts'>): Array<{ url: string; title: string; category: string }> {
  const pages = new Map<string, { url: string; title: string; category: string }>();
  for (let i = 0; i < options.prompts; i += 1) {
    const { category, text } = promptSeed(i);
    const page = category.brandPage(slugOf(text));
    const url = `https://${BRAND.domain}${page.path}`;
    if (!pages.has(url)) pages.set(url, { url, title: page.title, category: category.name });
  }
  return [...pages.values()];
}

/**
 * The visibility demo as import lines: categories, competitors, prompts, then snapshots day by day.
 * The brand's mention and citation levels differ by platform and category and drift over the
 * period (with a small weekly rhythm and a content launch that lifts citations part way through);
 * some prompts never run on some platforms, some days have no collection at all, and PENDING and
 * GENERATING prompts have no or only recent answers.
 */
export function* generateVisibility(options: DemoDataOptions): Generator<string> {
  const random = seededRandom(options.seed);
  const ns = `${options.idNamespace ?? 'demo'}:${options.seed}`;
  const chance = (p: number): boolean => random() < p;
  const lastDay = Math.floor((options.today ?? new Date()).getTime() / DAY_MS);
  const firstDay = lastDay - options.days + 1;

  const categoryIds = CATEGORIES.map((c) => demoId(ns, `category:${c.name}`));
  for (const [i, c] of CATEGORIES.entries()) yield JSON.stringify({ type: 'category', id: categoryIds[i], name: c.name, color: c.color });
  for (const c of COMPETITORS) yield JSON.stringify({ type: 'competitor', id: demoId(ns, `competitor:${c.name}`), name: c.name, domain: c.domain });

  const prompts = Array.from({ length: options.prompts }, (_, i) => {
    const { categoryIndex, category, text } = promptSeed(i);
    // About one prompt in eleven is still pending and one in eleven generating, across categories.
    const status = i % 11 === 5 ? 'PENDING' : i % 11 === 8 ? 'GENERATING' : 'ACTIVE';
    // Active prompts were created before the period; generating ones a few days ago, pending ones today or yesterday.
    const startDay = status === 'ACTIVE' ? firstDay : status === 'GENERATING' ? lastDay - 2 - Math.floor(random() * 5) : lastDay + 1;
    const createdDay = status === 'ACTIVE' ? firstDay - 1 - Math.floor(random() * 30) : status === 'GENERATING' ? startDay : lastDay - Math.floor(random() * 2);
    const dropped = new Set<string>();
    if (chance(0.3)) dropped.add(chance(0.5) ? 'grok' : 'gemini');
    if (chance(0.1)) dropped.add(PLATFORMS[Math.floor(random() * PLATFORMS.length)]!.platform);
    return {
      id: demoId(ns, `prompt:${i}`),
      index: i,
      text,
      category,
      // One prompt in eight has no category, as real workspaces have some.
      categoryId: i % 8 === 7 ? null : categoryIds[categoryIndex]!,
      status,
      startDay,
      createdAt: new Date(createdDay * DAY_MS + Math.floor(random() * DAY_MS)).toISOString(),
      affinity: 0.55 + random() * 0.8,
      platforms: PLATFORMS.filter((p) => !dropped.has(p.platform)),
    };
  });
  for (const p of prompts) {
    yield JSON.stringify({ type: 'prompt', id: p.id, text: p.text, category_id: p.categoryId, status: p.status, created_at: p.createdAt });
  }

  // A two-day collection outage about a third of the way in, and a content launch at 60%.
  const outage = firstDay + Math.floor(options.days * 0.35);
  const launch = firstDay + Math.floor(options.days * 0.6);
  for (let day = firstDay; day <= lastDay; day += 1) {
    if (options.days > 20 && (day === outage || day === outage + 1)) continue;
    const t = options.days <= 1 ? 1 : (day - firstDay) / (options.days - 1);
    const weekly = 0.04 * Math.sin((2 * Math.PI * day) / 7);
    for (const p of prompts) {
      if (day < p.startDay || chance(0.04)) continue;
      for (const platform of p.platforms) {
        if (chance(0.02)) continue;
        const mentionLevel = clamp(platform.mention * p.category.brand * p.affinity * (1 + platform.drift * (t - 0.5)) + weekly);
        const citeLevel = clamp(platform.cite * p.affinity * (1 + platform.drift * (t - 0.5)) + (day >= launch ? 0.08 : 0) + weekly / 2);
        for (let j = 0; j < options.answersPerDay; j += 1) {
          yield snapshotLine(ns, p, platform.platform, day, j, options.answersPerDay, mentionLevel, citeLevel, t, random);
        }
      }
    }
  }
}

function snapshotLine(
  ns: string,
  prompt: { id: string; index: number; category: CategorySeed; text: string },
  platform: string,
  day: number,
  j: number,
  answersPerDay: number,
  mentionLevel: number,
  citeLevel: number,
  t: number,
  random: () => number,
): string {
  const mentioned = random() < mentionLevel;
  // Answers that name the brand cite its pages far more often than answers that do not.
  const cited = random() < clamp(mentioned ? citeLevel * 1.5 : citeLevel * 0.35);
  const named = COMPETITORS.filter((c) => random() < clamp(c.strength * prompt.category.rivals * (1 + c.drift * (t - 0.5)), 0, 0.9));
  const citations: { url: string; title: string }[] = [];
  if (cited) {
    const page = prompt.category.brandPage(slugOf(prompt.text));
    citations.push({ url: `https://${BRAND.domain}${page.path}`, title: page.title });
  }
  for (const c of named.slice(0, 2)) citations.push({ url: `https://${c.domain}/`, title: `${c.name}: product analytics platform` });
  if (random() < 0.7) citations.push(THIRD_PARTY[Math.floor(random() * THIRD_PARTY.length)]!);
  const picks = [...(mentioned ? [BRAND.name] : []), ...named.map((c) => c.name)];
  const answer =
    picks.length === 0
      ? `${prompt.category.opening} There is no single answer to "${prompt.text}"; it depends on your team size, data volume and budget.`
      : `${prompt.category.opening} For "${prompt.text}", the options most often recommended are ${listOf(picks)}. ` +
        `${mentioned ? `${BRAND.name} stands out for quick setup and clear funnels. ` : ''}Compare pricing and integrations before committing.`;
  // Collection runs shortly after midnight UTC, answers spread over the first five hours.
  const collectedMs = day * DAY_MS + Math.floor(((j + random()) / answersPerDay) * 5 * 3_600_000);
  return JSON.stringify({
    type: 'snapshot',
    id: demoTimeId(ns, `snapshot:${prompt.index}:${day}:${platform}:${j}`, collectedMs),
    prompt_id: prompt.id,
    platform,
    collected_at: new Date(collectedMs).toISOString(),
    mentioned,
    cited,
    competitors: named.map((c) => c.name),
    citations,
    answer,
  });
}
