import { and, eq, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../shared/db/client.js';
import { premiumSubscriptions, premiumTrialClaims } from './subscriptions.tables.js';
import { entitlements } from '../payments/payments.tables.js';
import { users } from '../users/users.tables.js';

export type SubscriptionRow = typeof premiumSubscriptions.$inferSelect;

export const subscriptionsRepository = {
  async findByUser(db: DbOrTx, userId: number): Promise<SubscriptionRow | undefined> {
    const [row] = await db.select().from(premiumSubscriptions).where(eq(premiumSubscriptions.userId, userId));
    return row;
  },

  /** The person's subscription, row-locked until the transaction ends (created when absent). */
  async lockForUser(
    tx: DbOrTx,
    userId: number,
    create: Omit<typeof premiumSubscriptions.$inferInsert, 'userId' | 'status'>,
  ): Promise<SubscriptionRow> {
    await tx
      .insert(premiumSubscriptions)
      .values({ ...create, userId, status: 'pending' })
      .onConflictDoNothing();
    const [row] = await tx
      .select()
      .from(premiumSubscriptions)
      .where(eq(premiumSubscriptions.userId, userId))
      .for('update');
    return row!;
  },

  async lockByUuid(tx: DbOrTx, uuid: string): Promise<SubscriptionRow | undefined> {
    const [row] = await tx
      .select()
      .from(premiumSubscriptions)
      .where(eq(premiumSubscriptions.uuid, uuid))
      .for('update');
    return row;
  },

  async update(
    tx: DbOrTx,
    uuid: string,
    at: Date,
    values: Partial<typeof premiumSubscriptions.$inferInsert>,
  ): Promise<SubscriptionRow> {
    const [row] = await tx
      .update(premiumSubscriptions)
      .set({ ...values, updatedAt: at })
      .where(eq(premiumSubscriptions.uuid, uuid))
      .returning();
    return row!;
  },

  /** Subscriptions whose renewal attempt is due, oldest first. */
  async findDue(db: DbOrTx, now: Date, limit: number): Promise<SubscriptionRow[]> {
    return db
      .select()
      .from(premiumSubscriptions)
      .where(
        and(
          eq(premiumSubscriptions.autoRenew, true),
          isNotNull(premiumSubscriptions.savedMethodId),
          lte(premiumSubscriptions.nextAttemptAt, now),
        ),
      )
      .orderBy(premiumSubscriptions.nextAttemptAt)
      .limit(limit);
  },

  /**
   * Takes the due attempt for this run: moves the next attempt to `leaseUntil` only if it is still
   * the one seen, so two workers never charge the same renewal; a run that dies leaves it to the lease.
   */
  async claimAttempt(db: DbOrTx, uuid: string, seen: Date, leaseUntil: Date, at: Date): Promise<boolean> {
    const rows = await db
      .update(premiumSubscriptions)
      .set({ nextAttemptAt: leaseUntil, updatedAt: at })
      .where(
        and(
          eq(premiumSubscriptions.uuid, uuid),
          eq(premiumSubscriptions.autoRenew, true),
          eq(premiumSubscriptions.nextAttemptAt, seen),
        ),
      )
      .returning({ uuid: premiumSubscriptions.uuid });
    return rows.length === 1;
  },

  async telegramIdOf(db: DbOrTx, userId: number): Promise<number | null> {
    const [row] = await db.select({ telegramId: users.telegramId }).from(users).where(eq(users.id, userId));
    return row?.telegramId ?? null;
  },

  async anyTrialClaimed(db: DbOrTx, subjects: string[]): Promise<boolean> {
    const [row] = await db
      .select({ subject: premiumTrialClaims.subject })
      .from(premiumTrialClaims)
      .where(inArray(premiumTrialClaims.subject, subjects))
      .limit(1);
    return Boolean(row);
  },

  /** Claims the trial for every subject; false (and nothing claimed) when any had it already. */
  async claimTrial(tx: DbOrTx, subjects: string[], userId: number, at: Date): Promise<boolean> {
    const inserted = await tx
      .insert(premiumTrialClaims)
      .values(subjects.map((subject) => ({ subject, userId, claimedAt: at })))
      .onConflictDoNothing()
      .returning({ subject: premiumTrialClaims.subject });
    if (inserted.length === subjects.length) return true;
    if (inserted.length) {
      await tx.delete(premiumTrialClaims).where(
        inArray(
          premiumTrialClaims.subject,
          inserted.map((r) => r.subject),
        ),
      );
    }
    return false;
  },

  /** Premium's features follow the subscription's access: the entitlement ends where access ends. */
  async setPremiumUntil(tx: DbOrTx, userId: number, until: Date): Promise<void> {
    await tx
      .insert(entitlements)
      .values({ userId, kind: 'premium', until })
      .onConflictDoUpdate({
        target: [entitlements.userId, entitlements.kind],
        set: { until: sql`excluded.until` },
      });
  },
};
