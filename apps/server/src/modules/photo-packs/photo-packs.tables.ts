import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { TLanguage } from '@mirra/contracts';
import { createdAt } from '../../shared/db/columns.js';

/**
 * Photo packs staff made in the console: titles and descriptions in every language, the English
 * prompts (one picture each), the frame shape, the price of the whole pack (null: the console's
 * per-picture price times its pictures), the catalogue order and the cover. A retired pack leaves
 * the catalogue; albums already bought keep their pictures, which never read the pack again.
 */
export const photoPacks = pgTable(
  'photo_packs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    uuid: uuid('uuid').notNull().unique(),
    titles: jsonb('titles').$type<Record<TLanguage, string>>().notNull(),
    descriptions: jsonb('descriptions').$type<Record<TLanguage, string>>().notNull(),
    emoji: text('emoji').notNull(),
    prompts: jsonb('prompts').$type<string[]>().notNull(),
    aspect: text('aspect').notNull(),
    price: integer('price'),
    position: integer('position').notNull().default(0),
    /** The cover's storage key (a JPEG), once staff chose one. */
    coverKey: text('cover_key'),
    retiredAt: timestamp('retired_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('photo_packs_catalogue_idx')
      .on(t.position, t.id)
      .where(sql`${t.retiredAt} IS NULL`),
  ],
);
