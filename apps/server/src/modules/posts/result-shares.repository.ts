import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../shared/db/client.js';
import type { StoredResult } from '../../shared/db/json-columns.js';
import { resultShares } from './posts.tables.js';
import { generations } from '../generations/generations.tables.js';
import { users } from '../users/users.tables.js';

export type ResultShareRow = typeof resultShares.$inferSelect;

/** A share with what its page shows: the generation's result and its author. */
export interface SharedResultRow {
  share: ResultShareRow;
  generationStatus: number;
  result: StoredResult | null;
  authorUuid: string;
  authorFirstName: string;
  authorLastName: string;
  authorUsername: string;
  authorAvatarUrl: string | null;
}

export const resultSharesRepository = {
  async findLive(db: DbOrTx, generationId: number): Promise<ResultShareRow | undefined> {
    const [row] = await db
      .select()
      .from(resultShares)
      .where(and(eq(resultShares.generationId, generationId), isNull(resultShares.revokedAt)));
    return row;
  },

  /** The new live share, or undefined when the generation has one already (a double tap). */
  async insert(tx: DbOrTx, values: { token: string; generationId: number; at: Date }) {
    const [row] = await tx
      .insert(resultShares)
      .values({ token: values.token, generationId: values.generationId, createdAt: values.at })
      .onConflictDoNothing()
      .returning();
    return row;
  },

  async revokeLive(tx: DbOrTx, generationId: number, at: Date): Promise<void> {
    await tx
      .update(resultShares)
      .set({ revokedAt: at })
      .where(and(eq(resultShares.generationId, generationId), isNull(resultShares.revokedAt)));
  },

  async findByToken(db: DbOrTx, token: string): Promise<SharedResultRow | undefined> {
    const [row] = await db
      .select({
        share: resultShares,
        generationStatus: generations.status,
        result: generations.result,
        authorUuid: users.uuid,
        authorFirstName: users.firstName,
        authorLastName: users.lastName,
        authorUsername: users.username,
        authorAvatarUrl: users.telegramPhotoUrl,
      })
      .from(resultShares)
      .innerJoin(generations, eq(generations.id, resultShares.generationId))
      .innerJoin(users, eq(users.id, generations.userId))
      .where(eq(resultShares.token, token));
    return row as SharedResultRow | undefined;
  },
};
