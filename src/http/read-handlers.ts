import type { ReadHandlers } from '../operations/handler-types.js';
import { getMe } from '../handlers/me.js';
import { getPage, getSite, getTopic, listPages, listSites, listTopics } from '../handlers/content-map.js';
import { getArticle, getIdea, listArticles, listIdeas } from '../handlers/content.js';
import { getAgentTask, getResearchBatch, listAgentTasks, listResearchBatches } from '../handlers/content.js';
import {
  getBrandVoice, getContentType, getPersona, getProduct, getVisualGuideline,
  listBrandVoices, listContentTypes, listPersonas, listProducts, listVisualGuidelines,
} from '../handlers/iq.js';
import { getWorkspace } from '../handlers/workspace.js';
import { getWorkspacePlan } from '../handlers/workspace-plan.js';
import { getWorkspaceUsage } from '../handlers/workspace-usage.js';
import { getPromptAnalytics, listPrompts } from '../handlers/visibility-prompts.js';
import { getVisibilityCompetitors, getVisibilityRates, getVisibilitySetup } from '../handlers/visibility-overview.js';
import { listCitedPages } from '../handlers/visibility-cited-pages.js';
import { getAnswer, listAnswers } from '../handlers/visibility-answers.js';
import { exportAnswers, exportAnswersNdjson, exportDailyRates, exportDailyRatesNdjson } from '../handlers/visibility-exports.js';
import { listContentEvents, listContentMapEvents, listIqEvents } from '../handlers/event-feeds.js';

/** One handler per operationId of the contract; the type makes a missing one a compile error. */
export const handlers: ReadHandlers = {
  getMe,
  listTopics,
  getTopic,
  listSites,
  getSite,
  listPages,
  getPage,
  listArticles,
  getArticle,
  listIdeas,
  getIdea,
  listResearchBatches,
  getResearchBatch,
  listAgentTasks,
  getAgentTask,
  listProducts,
  getProduct,
  listPersonas,
  getPersona,
  listBrandVoices,
  getBrandVoice,
  listContentTypes,
  getContentType,
  listVisualGuidelines,
  getVisualGuideline,
  getWorkspace,
  getWorkspacePlan,
  getWorkspaceUsage,
  listPrompts,
  getPromptAnalytics,
  getVisibilitySetup,
  getVisibilityRates,
  getVisibilityCompetitors,
  listCitedPages,
  listAnswers,
  getAnswer,
  exportAnswers,
  exportAnswersNdjson,
  exportDailyRates,
  exportDailyRatesNdjson,
  listContentEvents,
  listContentMapEvents,
  listIqEvents,
};
