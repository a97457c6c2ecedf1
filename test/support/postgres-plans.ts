import type { Queryable } from '../../src/store/postgres/query.js';
import { createPostgresPool } from '../../src/store/postgres/pool.js';

/**
 * Every plan PostgreSQL ran for what `run` sends on one connection of the database at `url`, with
 * actual row counts: the auto_explain module (shipped with the server; loading it takes a
 * superuser, as the test and benchmark clusters' user is) reports each statement's plan as a
 * notice. `settings` are applied first (`{ enable_seqscan: 'off' }` shows whether a statement can
 * use an index at all, whatever the size of the tables).
 */
export async function plansOf(url: string, run: (db: Queryable) => Promise<unknown>, settings: Record<string, string> = {}): Promise<string[]> {
  const pool = createPostgresPool(url, { max: 1 });
  try {
    const plans: string[] = [];
    const client = await pool.connect();
    client.on('notice', (notice) => plans.push(notice.message ?? ''));
    await client.query("LOAD 'auto_explain'");
    const all = { 'auto_explain.log_min_duration': '0', 'auto_explain.log_analyze': 'on', 'auto_explain.log_level': 'notice', client_min_messages: 'notice', ...settings };
    // SET statements are not planned, so they report no plan of their own.
    await client.query(Object.entries(all).map(([name, value]) => `SET ${name} = ${client.escapeLiteral(value)};`).join(' '));
    client.release();
    await run(pool);
    return plans;
  } finally {
    await pool.end();
  }
}
