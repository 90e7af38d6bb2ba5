import { sql } from 'drizzle-orm';
import type { Db } from '../../shared/db/client.js';

/** What one person's rows hold, table by table, as the export writes them (secrets left out). */
const PERSONAL_TABLES = {
  generations: 'user_id',
  posts: 'user_id',
  models: 'user_id',
  uploads: 'user_id',
  credit_entries: 'user_id',
  payment_orders: 'user_id',
  wallet_entries: 'user_id',
  premium_subscriptions: 'user_id',
  partner_commissions: 'beneficiary_id',
  payout_requests: 'user_id',
  notifications: 'user_id',
  notification_preferences: 'user_id',
} as const;

export type PersonalTable = keyof typeof PERSONAL_TABLES;

export const accountExportRepository = {
  tables: Object.keys(PERSONAL_TABLES) as PersonalTable[],

  async profile(db: Db, userId: number): Promise<Record<string, unknown> | null> {
    const { rows } = await db.execute<{ row: Record<string, unknown> }>(
      sql`SELECT to_jsonb(u) - 'password_hash' AS row FROM users u WHERE id = ${userId} AND deleted_at IS NULL`,
    );
    return rows[0]?.row ?? null;
  },

  async rowsOf(db: Db, table: PersonalTable, userId: number): Promise<unknown[]> {
    const { rows } = await db.execute<{ row: unknown }>(
      sql`SELECT to_jsonb(t) AS row FROM ${sql.identifier(table)} t
        WHERE ${sql.identifier(PERSONAL_TABLES[table])} = ${userId}`,
    );
    return rows.map((r) => r.row);
  },

  /** Every stored file of the person, with the name it gets in the archive. */
  async files(db: Db, userId: number): Promise<Array<{ name: string; key: string }>> {
    const { rows } = await db.execute<{ name: string; key: string }>(sql`
      SELECT 'uploads/' || u.uuid || '/' || regexp_replace(u.storage_key, '^.*/', '') AS name, u.storage_key AS key
        FROM uploads u WHERE u.user_id = ${userId}
      UNION ALL
      SELECT 'models/' || m.uuid || '/' || regexp_replace(p.storage_key, '^.*/', ''), p.storage_key
        FROM model_photos p JOIN models m ON m.id = p.model_id WHERE m.user_id = ${userId}
      UNION ALL
      SELECT 'results/' || g.uuid || '/' || regexp_replace(g.result->'original'->>'key', '^.*/', ''),
          g.result->'original'->>'key'
        FROM generations g WHERE g.user_id = ${userId} AND g.result IS NOT NULL`);
    return rows;
  },
};
