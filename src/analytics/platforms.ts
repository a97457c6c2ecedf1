import type { components } from '../../generated/openapi.js';

export type Platform = components['schemas']['Platform'];

/** Every platform, in the order every response lists them (the seed's order). */
export const PLATFORMS: readonly Platform[] = ['chatgpt', 'google_ai_overview', 'perplexity', 'gemini', 'grok', 'claude'];
