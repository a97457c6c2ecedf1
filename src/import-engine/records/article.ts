import { formatType, type RecordType } from '../record-type.js';
import type { ImportRecords } from '../../../generated/import-format.js';
import { lifetime, orNull, saveWithEvent, utcOrNull } from '../record-fields.js';
import { saveRow, stateOf } from '../saved-rows.js';
import { CONTENT_TABLES, contentColumns } from '../../store/content-rows.js';

/** Articles of the content library; a status change sends `content.status_updated`. */
export const article: RecordType<ImportRecords['article']> = {
  ...formatType('article'),
  open(io, { workspaceId }) {
    const rows = io.saved(CONTENT_TABLES.article);
    return {
      apply(record, ctx) {
        const topicId = orNull(record.topic_id);
        if (topicId === null && record.topic === undefined) ctx.fail('topic', 'is required when topic_id is null');
        const row = contentColumns.article({
          id: record.id,
          workspace_id: workspaceId,
          title: record.title,
          buyer_stage: orNull(record.buyer_stage),
          status: record.status,
          topic_id: topicId,
          // Shown only for an article without a topic record; linked ones show the topic's name.
          topic: record.topic ?? '',
          keywords: record.keywords ?? [],
          source: record.source,
          config: {
            autowrite: record.config?.autowrite ?? false,
            planned_for: orNull(record.config?.planned_for),
            planned_time: orNull(record.config?.planned_time),
          },
          written_on: utcOrNull(ctx, 'written_on', record.written_on),
          published_on: utcOrNull(ctx, 'published_on', record.published_on),
          research_batch_id: orNull(record.research_batch_id),
          body: orNull(record.body),
          cover_image: orNull(record.cover_image),
          slug: orNull(record.slug),
          permalink: orNull(record.permalink),
          meta_title: orNull(record.meta_title),
          meta_description: orNull(record.meta_description),
          post_url: orNull(record.post_url),
          ...lifetime(ctx, record),
        });
        return saveWithEvent(ctx, {
          id: record.id,
          next: record.status,
          stateOf: () => stateOf(rows, CONTENT_TABLES.article, record.id),
          save: () => saveRow(rows, CONTENT_TABLES.article, row),
          event: 'content.status_updated',
        });
      },
    };
  },
};
