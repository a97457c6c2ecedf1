import type { RecordType } from '../record-type.js';
import { category } from './category.js';
import { competitor } from './competitor.js';
import { agentTask } from './agent-task.js';
import { article } from './article.js';
import { idea } from './idea.js';
import { iqRecord } from './iq-record.js';
import { page } from './page.js';
import { researchBatch } from './research-batch.js';
import { site } from './site.js';
import { topic } from './topic.js';
import { prompt } from './prompt.js';
import { snapshot } from './snapshot.js';
import { workspaceProfile } from './workspace-profile.js';
import { workspacePlan } from './workspace-plan.js';

/** Every record type of the import format, by its `type` value. One line per type. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each type takes its own input shape; callers see RecordType
export const recordTypes: readonly RecordType<any>[] = [
  category,
  competitor,
  topic,
  site,
  page,
  researchBatch,
  idea,
  article,
  agentTask,
  iqRecord,
  prompt,
  snapshot,
  workspaceProfile,
  workspacePlan,
];
