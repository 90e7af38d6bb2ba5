import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../shared/db/client.js';
import { takedownRequests } from './takedowns.tables.js';

export type TakedownRow = typeof takedownRequests.$inferSelect;

export const takedownsRepository = {
  async insert(tx: DbOrTx, values: typeof takedownRequests.$inferInsert): Promise<TakedownRow> {
    const [row] = await tx.insert(takedownRequests).values(values).returning();
    return row!;
  },

  /** The same person's open request about the same post, if they already sent one. */
  async findOpen(tx: DbOrTx, postUuid: string, contactEmail: string): Promise<TakedownRow | undefined> {
    const [row] = await tx
      .select()
      .from(takedownRequests)
      .where(
        and(
          eq(takedownRequests.postUuid, postUuid),
          eq(takedownRequests.contactEmail, contactEmail),
          isNull(takedownRequests.resolvedAt),
        ),
      )
      .orderBy(takedownRequests.id)
      .limit(1);
    return row;
  },

  /** Open requests about a post, locked until the review's transaction ends, oldest first. */
  async lockOpen(tx: DbOrTx, postUuid: string): Promise<TakedownRow[]> {
    return tx
      .select()
      .from(takedownRequests)
      .where(and(eq(takedownRequests.postUuid, postUuid), isNull(takedownRequests.resolvedAt)))
      .orderBy(takedownRequests.receivedAt, takedownRequests.id)
      .for('update');
  },

  async resolve(tx: DbOrTx, postUuid: string, at: Date, outcome: 'removed' | 'rejected'): Promise<number> {
    const rows = await tx
      .update(takedownRequests)
      .set({ resolvedAt: at, outcome })
      .where(and(eq(takedownRequests.postUuid, postUuid), isNull(takedownRequests.resolvedAt)))
      .returning({ id: takedownRequests.id });
    return rows.length;
  },
};
