import type { RecordType } from '../record-type.js';

export type CompetitorRecord = { type: 'competitor'; id: string; name: string; domain: string };

/** Snapshots name competitors case-insensitively, so the lower-cased name is the workspace-unique key. */
export function competitorNameKey(name: string): string {
  return name.toLowerCase();
}

/** The competitors a workspace tracks. */
export const competitor: RecordType<CompetitorRecord> = {
  type: 'competitor',
  schema: 'records/competitor.schema.json',
  references: [],
  open(db, { workspaceId }) {
    const get = db.prepare('SELECT name, domain FROM competitors WHERE id = ?').raw();
    const namedLike = db.prepare('SELECT id, name FROM competitors WHERE workspace_id = ? AND name_key = ? AND id <> ?').raw();
    const insert = db.prepare('INSERT INTO competitors (id, workspace_id, name, name_key, domain) VALUES (?, ?, ?, ?, ?)');
    const update = db.prepare('UPDATE competitors SET name = ?, name_key = ?, domain = ? WHERE id = ?');
    return {
      apply(record, ctx) {
        const existing = ctx.isNew ? undefined : (get.get(record.id) as [string, string] | undefined);
        if (existing && existing[0] === record.name && existing[1] === record.domain) return 'unchanged';
        const key = competitorNameKey(record.name);
        const clash = namedLike.get(workspaceId, key, record.id) as [string, string] | undefined;
        if (clash) return ctx.fail('name', `competitor ${clash[0]} of this workspace is already named ${JSON.stringify(clash[1])} (names are matched case-insensitively)`);
        if (!existing) {
          insert.run(record.id, workspaceId, record.name, key, record.domain);
          return 'inserted';
        }
        update.run(record.name, key, record.domain, record.id);
        return 'updated';
      },
    };
  },
};
