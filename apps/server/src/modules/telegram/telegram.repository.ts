import { and, eq, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../shared/db/client.js';
import { telegramAuthKeys, telegramUpdates } from './telegram.tables.js';

export type TelegramAuthKeyRow = typeof telegramAuthKeys.$inferSelect;

export const telegramRepository = {
  async insertAuthKey(
    db: DbOrTx,
    values: {
      keyHash: string;
      expiresAt: Date;
      requestedByUserId: number | null;
      referralCode: string | null;
    },
  ): Promise<TelegramAuthKeyRow> {
    const [row] = await db.insert(telegramAuthKeys).values(values).returning();
    return row!;
  },

  async findAuthKeyByHashForUpdate(db: DbOrTx, keyHash: string) {
    const [row] = await db
      .select()
      .from(telegramAuthKeys)
      .where(eq(telegramAuthKeys.keyHash, keyHash))
      .for('update');
    return row;
  },

  async findAuthKeyForUpdate(db: DbOrTx, uuid: string) {
    const [row] = await db
      .select()
      .from(telegramAuthKeys)
      .where(eq(telegramAuthKeys.uuid, uuid))
      .for('update');
    return row;
  },

  async updateAuthKey(db: DbOrTx, uuid: string, values: Partial<typeof telegramAuthKeys.$inferInsert>) {
    await db.update(telegramAuthKeys).set(values).where(eq(telegramAuthKeys.uuid, uuid));
  },

  async deleteExpiredAuthKeys(db: DbOrTx, before: Date): Promise<void> {
    await db.delete(telegramAuthKeys).where(and(lt(telegramAuthKeys.expiresAt, before)));
  },

  /** Records an update id; false when it was seen before (Telegram re-delivered it). */
  async claimUpdate(db: DbOrTx, updateId: number): Promise<boolean> {
    const result = await db.execute(
      sql`INSERT INTO ${telegramUpdates} (update_id) VALUES (${updateId}) ON CONFLICT DO NOTHING`,
    );
    return (result.rowCount ?? 0) > 0;
  },
};
