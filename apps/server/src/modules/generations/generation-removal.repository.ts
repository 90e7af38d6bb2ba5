import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../shared/db/client.js';
import { generations } from './generations.tables.js';

export const generationRemovalRepository = {
  /** Deletes the generation (its post, shares and kept hash go with it); returns whose it was. */
  async delete(tx: DbOrTx, id: number): Promise<{ userId: number; uuid: string } | undefined> {
    const [row] = await tx
      .delete(generations)
      .where(eq(generations.id, id))
      .returning({ userId: generations.userId, uuid: generations.uuid });
    return row;
  },
};
