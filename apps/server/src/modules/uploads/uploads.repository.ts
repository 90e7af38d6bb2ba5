import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../shared/db/client.js';
import { uploads } from './uploads.tables.js';

export type UploadRow = typeof uploads.$inferSelect;

/** SQL for uploaded photos; no decisions here. Every read is scoped to the owner. */
export const uploadsRepository = {
  async insert(db: DbOrTx, values: typeof uploads.$inferInsert): Promise<UploadRow> {
    const [row] = await db.insert(uploads).values(values).returning();
    return row!;
  },

  async findOwned(db: DbOrTx, userId: number, uuid: string): Promise<UploadRow | undefined> {
    const [row] = await db
      .select()
      .from(uploads)
      .where(and(eq(uploads.uuid, uuid), eq(uploads.userId, userId)));
    return row;
  },

  async findManyOwned(db: DbOrTx, userId: number, uuids: string[]): Promise<UploadRow[]> {
    if (!uuids.length) return [];
    return db
      .select()
      .from(uploads)
      .where(and(eq(uploads.userId, userId), inArray(uploads.uuid, uuids)));
  },

  async deleteOwned(db: DbOrTx, userId: number, uuid: string): Promise<UploadRow | undefined> {
    const [row] = await db
      .delete(uploads)
      .where(and(eq(uploads.uuid, uuid), eq(uploads.userId, userId)))
      .returning();
    return row;
  },

  /** Every upload copying the generation's picture, whoever made the copy. */
  deleteCopiesOf(db: DbOrTx, generationId: number): Promise<UploadRow[]> {
    return db.delete(uploads).where(eq(uploads.copiedFromGenerationId, generationId)).returning();
  },
};
