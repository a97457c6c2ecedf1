import type { ReadHandlers } from './handler-types.js';
import { getMe } from './me.js';
import { getPage, getSite, getTopic, listPages, listSites, listTopics } from './content-map.js';
import { getArticle, getIdea, listArticles, listIdeas } from './content.js';
import { getAgentTask, getResearchBatch, listAgentTasks, listResearchBatches } from './content.js';
import {
  getBrandVoice, getContentType, getPersona, getProduct, getVisualGuideline,
  listBrandVoices, listContentTypes, listPersonas, listProducts, listVisualGuidelines,
} from './iq.js';
import { getWorkspace } from './workspace.js';
import { getWorkspacePlan } from './workspace-plan.js';
import { getWorkspaceUsage } from './workspace-usage.js';
import { getPromptAnalytics, listPrompts } from './visibility-prompts.js';
import { getVisibilityCompetitors, getVisibilityRates, getVisibilitySetup } from './visibility-overview.js';
import { listCitedPages } from './visibility-cited-pages.js';
import { getAnswer, listAnswers } from './visibility-answers.js';
import { exportAnswers, exportAnswersNdjson, exportDailyRates, exportDailyRatesNdjson } from './visibility-exports.js';
import { listContentEvents, listContentMapEvents, listIqEvents } from './event-feeds.js';

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
