import { and, desc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../shared/db/client.js';
import { notifications } from '../../shared/db/schema.js';

export type NotificationRow = typeof notifications.$inferSelect;

export const notificationsRepository = {
  /** Inserts once per dedupe key; a repeat of the same event inserts nothing. */
  async insert(tx: DbOrTx, values: typeof notifications.$inferInsert): Promise<boolean> {
    const rows = await tx
      .insert(notifications)
      .values(values)
      .onConflictDoNothing({ target: notifications.dedupeKey })
      .returning({ id: notifications.id });
    return rows.length > 0;
  },

  /** Newest first, keyset-paginated by id. */
  listForUser(db: DbOrTx, userId: number, beforeId: number | null, limit: number) {
    return db
      .select()
      .from(notifications)
      .where(
        beforeId === null
          ? eq(notifications.userId, userId)
          : and(eq(notifications.userId, userId), lt(notifications.id, beforeId)),
      )
      .orderBy(desc(notifications.id))
      .limit(limit);
  },

  async countUnread(db: DbOrTx, userId: number): Promise<number> {
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
    return row?.n ?? 0;
  },

  async markRead(db: DbOrTx, userId: number, ids: number[] | undefined, at: Date): Promise<void> {
    const mine = and(eq(notifications.userId, userId), isNull(notifications.readAt));
    await db
      .update(notifications)
      .set({ readAt: at })
      .where(ids ? and(mine, inArray(notifications.id, ids)) : mine);
  },
};
