import { and, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../shared/db/client.js';
import { modelConsents, modelPhotos, models } from './models.tables.js';

export type ConsentRow = typeof modelConsents.$inferSelect;

/** SQL for consents to models of someone else. No decisions here. */
export const consentRepository = {
  async insert(db: DbOrTx, values: typeof modelConsents.$inferInsert): Promise<ConsentRow> {
    const [row] = await db.insert(modelConsents).values(values).returning();
    return row!;
  },

  async findByModel(db: DbOrTx, modelId: number): Promise<ConsentRow | undefined> {
    const [row] = await db.select().from(modelConsents).where(eq(modelConsents.modelId, modelId));
    return row;
  },

  /** The consent with its model's good-photo count (null once the model is deleted). */
  async findForPage(db: DbOrTx, uuid: string) {
    const [row] = await db
      .select({ consent: modelConsents, referenceCount: models.referenceCount })
      .from(modelConsents)
      .leftJoin(models, eq(models.id, modelConsents.modelId))
      .where(eq(modelConsents.uuid, uuid));
    return row;
  },

  async lockByUuid(db: DbOrTx, uuid: string): Promise<ConsentRow | undefined> {
    const [row] = await db.select().from(modelConsents).where(eq(modelConsents.uuid, uuid)).for('update');
    return row;
  },

  async update(db: DbOrTx, id: number, values: Partial<typeof modelConsents.$inferInsert>): Promise<void> {
    await db.update(modelConsents).set(values).where(eq(modelConsents.id, id));
  },

  /** The preview of the model's first good photo (what the page shows the person). */
  async coverKey(db: DbOrTx, modelId: number): Promise<string | null> {
    const [row] = await db
      .select({ key: modelPhotos.thumbnailKey })
      .from(modelPhotos)
      .where(and(eq(modelPhotos.modelId, modelId), eq(modelPhotos.ok, true)))
      .orderBy(desc(modelPhotos.id))
      .limit(1);
    return row?.key ?? null;
  },

  /**
   * Whether consent for the model was withdrawn. With `lock`, its consent row is held (FOR SHARE)
   * until the caller's transaction ends: a withdrawal running now is waited for and seen, and one
   * starting later waits for the caller.
   */
  async isWithdrawn(db: DbOrTx, modelUuid: string, lock = false): Promise<boolean> {
    const query = db
      .select({ status: modelConsents.status })
      .from(modelConsents)
      .where(eq(modelConsents.modelUuid, modelUuid));
    const rows = lock ? await query.for('share') : await query;
    return rows.some((row) => row.status === 'withdrawn');
  },
};
