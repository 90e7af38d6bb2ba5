import { timestamp } from 'drizzle-orm/pg-core';

/** The creation time every table stamps the same way. */
export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
