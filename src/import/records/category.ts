import type { RecordType } from '../record-type.js';

export type CategoryRecord = { type: 'category'; id: string; name: string; color: string };

/** Prompt categories. */
export const category: RecordType<CategoryRecord> = {
  type: 'category',
  schema: 'records/category.schema.json',
  references: [],
  open(db, { workspaceId }) {
    const get = db.prepare('SELECT name, color FROM categories WHERE id = ?').raw();
    const insert = db.prepare('INSERT INTO categories (id, workspace_id, name, color) VALUES (?, ?, ?, ?)');
    const update = db.prepare('UPDATE categories SET name = ?, color = ? WHERE id = ?');
    return {
      apply(record, ctx) {
        const existing = ctx.isNew ? undefined : (get.get(record.id) as [string, string] | undefined);
        if (!existing) {
          insert.run(record.id, workspaceId, record.name, record.color);
          return 'inserted';
        }
        if (existing[0] === record.name && existing[1] === record.color) return 'unchanged';
        update.run(record.name, record.color, record.id);
        return 'updated';
      },
    };
  },
};
