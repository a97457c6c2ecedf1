// The record types of the import format (`import-format/`), as the import engine and the line
// check of src/import/ need them: the value of `type`, the schema file, the table and the
// references to other records. One entry per type; its writer is beside it in the engine
// (`records/<type>.ts`, one file for every database).

/** A field holding the id (or null, or an array of ids) of a record of another type in the same workspace. */
interface Reference {
  field: string;
  type: string;
  /**
   * Deleting the referred record deletes the records that refer to it (a prompt's answers). Without
   * it, a record still referred to at the end of the file cannot be deleted.
   */
  cascade?: boolean;
}

export interface ImportRecordType {
  /** The value of the record's `type` field. */
  type: string;
  /** Its schema, relative to import-format/ (`records/<type>.schema.json`). */
  schema: string;
  /**
   * The table holding its rows, whose columns include its reference fields: records of a type with
   * a table can be deleted (`{"type": "delete", "record_type": ..., "id": ...}`).
   */
  table?: string;
  /** Top-level fields that refer to other records; checked and lower-cased by the import. */
  references: readonly Reference[];
}

/** Every record type of the import format, by its `type` value. One entry per type. */
export const IMPORT_RECORD_TYPES: readonly ImportRecordType[] = [
  { type: 'category', schema: 'records/category.schema.json', table: 'categories', references: [] },
  { type: 'competitor', schema: 'records/competitor.schema.json', table: 'competitors', references: [] },
  { type: 'topic', schema: 'records/topic.schema.json', table: 'topics', references: [] },
  { type: 'site', schema: 'records/site.schema.json', table: 'sitemap_urls', references: [] },
  {
    type: 'page',
    schema: 'records/page.schema.json',
    table: 'pages',
    references: [
      { field: 'site_id', type: 'site' },
      { field: 'topic_id', type: 'topic' },
    ],
  },
  { type: 'research_batch', schema: 'records/research-batch.schema.json', table: 'research_batches', references: [{ field: 'topic_id', type: 'topic' }] },
  {
    type: 'idea',
    schema: 'records/idea.schema.json',
    table: 'ideas',
    references: [
      { field: 'topic_id', type: 'topic' },
      { field: 'research_batch_id', type: 'research_batch' },
    ],
  },
  {
    type: 'article',
    schema: 'records/article.schema.json',
    table: 'articles',
    references: [
      { field: 'topic_id', type: 'topic' },
      { field: 'research_batch_id', type: 'research_batch' },
    ],
  },
  { type: 'agent_task', schema: 'records/agent-task.schema.json', table: 'agent_tasks', references: [] },
  { type: 'iq_record', schema: 'records/iq-record.schema.json', table: 'iq_records', references: [{ field: 'product_id', type: 'iq_record' }] },
  { type: 'prompt', schema: 'records/prompt.schema.json', table: 'prompts', references: [{ field: 'category_id', type: 'category' }] },
  // A prompt's answers go with it when it is deleted.
  { type: 'snapshot', schema: 'records/snapshot.schema.json', table: 'snapshots', references: [{ field: 'prompt_id', type: 'prompt', cascade: true }] },
  { type: 'workspace_profile', schema: 'records/workspace-profile.schema.json', references: [] },
  { type: 'workspace_plan', schema: 'records/workspace-plan.schema.json', references: [] },
];

const BY_TYPE = new Map(IMPORT_RECORD_TYPES.map((t) => [t.type, t]));

/** The record type whose `type` value is `name`, if the format has one. */
export function importRecordType(name: string): ImportRecordType | undefined {
  return BY_TYPE.get(name);
}

/** The `delete` line of the import format (`import-format/delete.schema.json`). */
export const DELETE_SCHEMA = 'delete.schema.json';

/** The types whose records a `delete` line may name: those with a table. */
export const DELETABLE_TYPES = IMPORT_RECORD_TYPES.filter((t) => t.table !== undefined).map((t) => t.type);
