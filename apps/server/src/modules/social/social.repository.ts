import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../shared/db/client.js';
import { subscriptions, userCounters } from './social.tables.js';

/** Who follows whom, and the profile counters kept beside it. */
export const socialRepository = {
  /** True when the subscription is new (the unique pair makes a repeat a no-op). */
  async insertSubscription(tx: DbOrTx, subscriberId: number, authorId: number): Promise<boolean> {
    const rows = await tx
      .insert(subscriptions)
      .values({ subscriberId, authorId })
      .onConflictDoNothing()
      .returning({ id: subscriptions.id });
    return rows.length > 0;
  },

  async deleteSubscription(tx: DbOrTx, subscriberId: number, authorId: number): Promise<boolean> {
    const rows = await tx
      .delete(subscriptions)
      .where(and(eq(subscriptions.subscriberId, subscriberId), eq(subscriptions.authorId, authorId)))
      .returning({ id: subscriptions.id });
    return rows.length > 0;
  },

  async isSubscribed(db: DbOrTx, subscriberId: number, authorId: number): Promise<boolean> {
    const [row] = await db
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(and(eq(subscriptions.subscriberId, subscriberId), eq(subscriptions.authorId, authorId)));
    return Boolean(row);
  },

  /** Adds to a user's counters, creating their row on first use. */
  async addToCounters(
    tx: DbOrTx,
    userId: number,
    delta: { subscribers?: number; subscriptions?: number; posts?: number },
  ): Promise<void> {
    const subscribers = delta.subscribers ?? 0;
    const subscriptionsDelta = delta.subscriptions ?? 0;
    const postsDelta = delta.posts ?? 0;
    await tx
      .insert(userCounters)
      .values({
        userId,
        subscribersCount: Math.max(0, subscribers),
        subscriptionsCount: Math.max(0, subscriptionsDelta),
        postsCount: Math.max(0, postsDelta),
      })
      .onConflictDoUpdate({
        target: userCounters.userId,
        set: {
          subscribersCount: sql`greatest(0, ${userCounters.subscribersCount} + ${subscribers})`,
          subscriptionsCount: sql`greatest(0, ${userCounters.subscriptionsCount} + ${subscriptionsDelta})`,
          postsCount: sql`greatest(0, ${userCounters.postsCount} + ${postsDelta})`,
        },
      });
  },

  async counters(db: DbOrTx, userId: number) {
    const [row] = await db.select().from(userCounters).where(eq(userCounters.userId, userId));
    return {
      subscribers: row?.subscribersCount ?? 0,
      subscriptions: row?.subscriptionsCount ?? 0,
      posts: row?.postsCount ?? 0,
    };
  },
};
