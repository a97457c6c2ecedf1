import type * as events from '../../../generated/events.js';

/**
 * The `data` of each webhook event an import writes (the AsyncAPI messages, `asyncapi/asyncapi.yaml`):
 * the changed record exactly as the read API shows it, read back once the change is written.
 */
export interface EventData {
  'content.status_updated': events.Article;
  'research_batch.status_updated': events.ResearchBatch;
  'agent_task.status_updated': events.AgentTask;
  'topic.status_updated': events.Topic;
  'iq.status_updated': events.IqRecord;
  'sitemap_url.status_updated': events.SitemapUrl;
}
