import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../shared/db/client.js';
import { entitlements, paymentOrders, paymentRegions } from '../../shared/db/schema.js';
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

  async findOrder(db: DbOrTx, uuid: string): Promise<PaymentOrderRow | undefined> {
    const [row] = await db.select().from(paymentOrders).where(eq(paymentOrders.uuid, uuid));
    return row;
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
