import { sql } from 'drizzle-orm';
import { bigint, check, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt } from '../../shared/db/columns.js';
import { users } from '../users/users.tables.js';

/** Query strings saved behind a short id, for the Mini App's `qs_<id>` start parameter. */
export const savedQueryStrings = pgTable(
  'saved_query_strings',
  {
    id: text('id').primaryKey(),
    qs: text('qs').notNull(),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, {
      onDelete: 'set null',
    }),
    createdAt: createdAt(),
  },
  (t) => [check('saved_query_strings_qs_length', sql`length(${t.qs}) <= 2000`)],
);
