import { and, asc, desc, eq, gt, inArray, isNotNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../shared/db/client.js';
import { entitlements, paymentEvents, paymentOrders, paymentRegions } from './payments.tables.js';
import type { TPaymentRegion } from '@mirra/contracts';

export type PaymentOrderRow = typeof paymentOrders.$inferSelect;

export const paymentsRepository = {
  async findRegion(db: DbOrTx, userId: number): Promise<TPaymentRegion | null> {
    const [row] = await db
      .select({ region: paymentRegions.region })
      .from(paymentRegions)
      .where(eq(paymentRegions.userId, userId));
    return row?.region ?? null;
  },

  async saveRegion(db: DbOrTx, userId: number, at: Date, region: TPaymentRegion): Promise<void> {
    await db
      .insert(paymentRegions)
      .values({ userId, region })
      .onConflictDoUpdate({ target: paymentRegions.userId, set: { region, updatedAt: at } });
  },

  async insertOrder(db: DbOrTx, values: typeof paymentOrders.$inferInsert): Promise<PaymentOrderRow> {
    const [row] = await db.insert(paymentOrders).values(values).returning();
    return row!;
  },

  /** A new order, unless one already holds its provider payment id (then undefined). */
  async insertOrderOnce(
    db: DbOrTx,
    values: typeof paymentOrders.$inferInsert,
  ): Promise<PaymentOrderRow | undefined> {
    const [row] = await db.insert(paymentOrders).values(values).onConflictDoNothing().returning();
    return row;
  },

  async findOrder(db: DbOrTx, uuid: string): Promise<PaymentOrderRow | undefined> {
    const [row] = await db.select().from(paymentOrders).where(eq(paymentOrders.uuid, uuid));
    return row;
  },

  /** A person's latest orders, newest first (staff). */
  async listUserOrders(db: DbOrTx, userId: number, limit: number): Promise<PaymentOrderRow[]> {
    return db
      .select()
      .from(paymentOrders)
      .where(eq(paymentOrders.userId, userId))
      .orderBy(desc(paymentOrders.createdAt))
      .limit(limit);
  },

  /**
   * Orders matching any of the terms (none given: every order), newest first (by creation, then
   * uuid), after the order `afterUuid` when paging on: the comparison reads that order's own
   * timestamp, so orders created in the same millisecond are neither skipped nor repeated.
   */
  async searchOrders(
    db: DbOrTx,
    terms: { orderUuid: string | null; providerPaymentId: string | null; userIds: number[] } | null,
    afterUuid: string | null,
    limit: number,
  ): Promise<PaymentOrderRow[]> {
    const match = terms
      ? or(
          terms.orderUuid !== null ? eq(paymentOrders.uuid, terms.orderUuid) : undefined,
          terms.providerPaymentId !== null
            ? eq(paymentOrders.providerPaymentId, terms.providerPaymentId)
            : undefined,
          terms.userIds.length > 0 ? inArray(paymentOrders.userId, terms.userIds) : undefined,
        )
      : undefined;
    // A term that can match nothing (no buyer found, not a uuid) must not widen to every order.
    if (terms && !match) return [];
    const after = afterUuid
      ? sql`(${paymentOrders.createdAt}, ${paymentOrders.uuid}) < (select p.created_at, p.uuid from payment_orders p where p.uuid = ${afterUuid})`
      : undefined;
    return db
      .select()
      .from(paymentOrders)
      .where(and(match, after))
      .orderBy(desc(paymentOrders.createdAt), desc(paymentOrders.uuid))
      .limit(limit);
  },

  async findUserOrder(db: DbOrTx, userId: number, uuid: string): Promise<PaymentOrderRow | undefined> {
    const [row] = await db
      .select()
      .from(paymentOrders)
      .where(and(eq(paymentOrders.uuid, uuid), eq(paymentOrders.userId, userId)));
    return row;
  },

  /** The order, row-locked until the transaction ends: its notifications are applied one at a time. */
  async lockOrder(tx: DbOrTx, uuid: string): Promise<PaymentOrderRow | undefined> {
    const [row] = await tx.select().from(paymentOrders).where(eq(paymentOrders.uuid, uuid)).for('update');
    return row;
  },

  /** Whether an order for this purpose's item still waits for its provider's answer. */
  async hasPendingOrderFor(db: DbOrTx, purposeRef: string): Promise<boolean> {
    const [row] = await db
      .select({ uuid: paymentOrders.uuid })
      .from(paymentOrders)
      .where(
        and(
          eq(paymentOrders.purposeRef, purposeRef),
          eq(paymentOrders.status, 'pending'),
          isNotNull(paymentOrders.savedMethodId),
        ),
      )
      .limit(1);
    return Boolean(row);
  },

  /** The receipt email of the latest order of this purpose's item that had one (a subscription's). */
  async latestReceiptEmail(db: DbOrTx, purposeRef: string): Promise<string | null> {
    const [row] = await db
      .select({ email: paymentOrders.receiptEmail })
      .from(paymentOrders)
      .where(and(eq(paymentOrders.purposeRef, purposeRef), isNotNull(paymentOrders.receiptEmail)))
      .orderBy(desc(paymentOrders.createdAt))
      .limit(1);
    return row?.email ?? null;
  },

  /** The order a provider's payment or subscription id belongs to (the subscription's first order). */
  async findOrderUuidByProviderRef(
    db: DbOrTx,
    provider: string,
    providerPaymentId: string,
    providerSubscriptionId: string | undefined,
  ): Promise<string | undefined> {
    const [row] = await db
      .select({ uuid: paymentOrders.uuid })
      .from(paymentOrders)
      .where(
        and(
          eq(paymentOrders.provider, provider),
          providerSubscriptionId
            ? or(
                eq(paymentOrders.providerPaymentId, providerPaymentId),
                eq(paymentOrders.providerSubscriptionId, providerSubscriptionId),
              )
            : eq(paymentOrders.providerPaymentId, providerPaymentId),
        ),
      )
      .orderBy(asc(paymentOrders.createdAt))
      .limit(1);
    return row?.uuid;
  },

  /** Records a provider's event as applied; false when it already was (a duplicate or a replay). */
  async claimEvent(tx: DbOrTx, provider: string, eventId: string, orderUuid: string, type: string) {
    const rows = await tx
      .insert(paymentEvents)
      .values({ provider, eventId, orderUuid, type })
      .onConflictDoNothing()
      .returning({ eventId: paymentEvents.eventId });
    return rows.length === 1;
  },

  /** Orders still pending that were made between `from` and `to`, oldest first. */
  async findPendingOrders(db: DbOrTx, from: Date, to: Date, limit: number): Promise<PaymentOrderRow[]> {
    return db
      .select()
      .from(paymentOrders)
      .where(
        and(
          eq(paymentOrders.status, 'pending'),
          gt(paymentOrders.createdAt, from),
          lt(paymentOrders.createdAt, to),
        ),
      )
      .orderBy(asc(paymentOrders.createdAt))
      .limit(limit);
  },

  async updateOrder(
    tx: DbOrTx,
    uuid: string,
    at: Date,
    values: Partial<typeof paymentOrders.$inferInsert>,
  ): Promise<PaymentOrderRow> {
    const [row] = await tx
      .update(paymentOrders)
      .set({ ...values, updatedAt: at })
      .where(eq(paymentOrders.uuid, uuid))
      .returning();
    return row!;
  },

  async lockUnlimitedUntil(tx: DbOrTx, userId: number): Promise<Date | null> {
    const [row] = await tx
      .select({ until: entitlements.until })
      .from(entitlements)
      .where(and(eq(entitlements.userId, userId), eq(entitlements.kind, 'unlimited')))
      .for('update');
    return row?.until ?? null;
  },

  async setUnlimitedUntil(tx: DbOrTx, userId: number, until: Date): Promise<void> {
    await tx
      .insert(entitlements)
      .values({ userId, kind: 'unlimited', until })
      .onConflictDoUpdate({ target: [entitlements.userId, entitlements.kind], set: { until } });
  },
};
