import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../shared/db/columns.js';
import { users } from '../users/users.tables.js';

/** Photos people upload (sources, references, targets). Private to their owner. */
export const uploads = pgTable(
  'uploads',
  {
    uuid: uuid('uuid').primaryKey().defaultRandom(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    contentType: text('content_type').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    bytes: integer('bytes').notNull(),
    storageKey: text('storage_key').notNull(),
    /**
     * The generation whose picture this upload copies ("use this picture", a post's picture taken
     * for one's own generation), so removing that picture for good removes its copies too.
     */
    copiedFromGenerationId: bigint('copied_from_generation_id', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('uploads_user_idx').on(t.userId),
    index('uploads_copied_from_idx')
      .on(t.copiedFromGenerationId)
      .where(sql`${t.copiedFromGenerationId} IS NOT NULL`),
  ],
);
