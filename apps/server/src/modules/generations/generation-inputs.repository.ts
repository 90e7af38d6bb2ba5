import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../shared/db/client.js';
import { uploads } from '../uploads/uploads.tables.js';

/** The uploaded photos a generation uses, only if they belong to the user. */
export const uploadsForGenerationRepository = {
  async findOwned(db: DbOrTx, userId: number, uuids: string[]) {
    if (!uuids.length) return [];
    return db
      .select()
      .from(uploads)
      .where(and(eq(uploads.userId, userId), inArray(uploads.uuid, uuids)));
  },
};
