import { and, asc, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../shared/db/client.js';
import { photoPacks } from './photo-packs.tables.js';

export type PhotoPackRow = typeof photoPacks.$inferSelect;
export type PhotoPackValues = Omit<typeof photoPacks.$inferInsert, 'id' | 'uuid' | 'createdAt'>;

/** SQL for photo packs. */
export const photoPacksRepository = {
  /** The packs on sale, in the catalogue's order. */
  async listOnSale(db: DbOrTx): Promise<PhotoPackRow[]> {
    return db
      .select()
      .from(photoPacks)
      .where(isNull(photoPacks.retiredAt))
      .orderBy(asc(photoPacks.position), asc(photoPacks.id));
  },

  /** Every pack, retired ones too, for the console. */
  async listAll(db: DbOrTx): Promise<PhotoPackRow[]> {
    return db.select().from(photoPacks).orderBy(asc(photoPacks.position), asc(photoPacks.id));
  },

  async findOnSale(db: DbOrTx, uuid: string): Promise<PhotoPackRow | undefined> {
    const [row] = await db
      .select()
      .from(photoPacks)
      .where(and(eq(photoPacks.uuid, uuid), isNull(photoPacks.retiredAt)));
    return row;
  },

  async findForUpdate(db: DbOrTx, uuid: string): Promise<PhotoPackRow | undefined> {
    const [row] = await db.select().from(photoPacks).where(eq(photoPacks.uuid, uuid)).for('update');
    return row;
  },

  async insert(db: DbOrTx, uuid: string, values: PhotoPackValues): Promise<PhotoPackRow> {
    const [row] = await db
      .insert(photoPacks)
      .values({ ...values, uuid })
      .returning();
    return row!;
  },

  async update(db: DbOrTx, id: number, values: Partial<PhotoPackValues>): Promise<PhotoPackRow> {
    const [row] = await db.update(photoPacks).set(values).where(eq(photoPacks.id, id)).returning();
    return row!;
  },
};
