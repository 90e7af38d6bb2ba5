import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../shared/db/client.js';
import { savedQueryStrings } from './qs.tables.js';

export type SavedQueryStringRow = typeof savedQueryStrings.$inferSelect;

/** SQL for saved query strings; no decisions here. */
export const qsRepository = {
  async findById(db: DbOrTx, id: string): Promise<SavedQueryStringRow | undefined> {
    const [row] = await db.select().from(savedQueryStrings).where(eq(savedQueryStrings.id, id));
    return row;
  },

  async insert(db: DbOrTx, values: { id: string; qs: string; userId: number }): Promise<SavedQueryStringRow> {
    const [row] = await db.insert(savedQueryStrings).values(values).returning();
    return row!;
  },
};
