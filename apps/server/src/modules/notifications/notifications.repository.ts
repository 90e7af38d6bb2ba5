import { and, desc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../shared/db/client.js';
import { notificationPreferences, notifications } from './notifications.tables.js';

export type NotificationRow = typeof notifications.$inferSelect;

export const notificationsRepository = {
  /**
   * Inserts once per dedupe key; a repeat of the same event inserts nothing (null). One hidden from
   * the app is born read, at the moment it is created, so the unread badge never counts it.
   */
  async insert(tx: DbOrTx, values: typeof notifications.$inferInsert): Promise<number | null> {
    const rows = await tx
      .insert(notifications)
      .values(values.inApp === false ? { ...values, readAt: sql`now()` } : values)
      .onConflictDoNothing({ target: notifications.dedupeKey })
      .returning({ id: notifications.id });
    return rows[0]?.id ?? null;
  },

  async findById(db: DbOrTx, id: number): Promise<NotificationRow | null> {
    const [row] = await db.select().from(notifications).where(eq(notifications.id, id));
    return row ?? null;
  },

  /** Newest first, keyset-paginated by id; notices the user turned off in the app are not listed. */
  listForUser(db: DbOrTx, userId: number, beforeId: number | null, limit: number) {
    const shown = and(eq(notifications.userId, userId), eq(notifications.inApp, true));
    return db
      .select()
      .from(notifications)
      .where(beforeId === null ? shown : and(shown, lt(notifications.id, beforeId)))
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

  listPreferences(db: DbOrTx, userId: number) {
    return db
      .select({
        category: notificationPreferences.category,
        channel: notificationPreferences.channel,
        enabled: notificationPreferences.enabled,
      })
      .from(notificationPreferences)
      .where(eq(notificationPreferences.userId, userId));
  },

  async savePreferences(
    db: DbOrTx,
    userId: number,
    changes: ReadonlyArray<{ category: string; channel: string; enabled: boolean }>,
    at: Date,
  ): Promise<void> {
    await db
      .insert(notificationPreferences)
      .values(changes.map((c) => ({ userId, ...c, updatedAt: at })))
      .onConflictDoUpdate({
        target: [
          notificationPreferences.userId,
          notificationPreferences.category,
          notificationPreferences.channel,
        ],
        set: { enabled: sql`excluded.enabled`, updatedAt: sql`excluded.updated_at` },
      });
  },
};
