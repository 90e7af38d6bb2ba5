import { bigint, integer, jsonb, pgTable } from 'drizzle-orm/pg-core';
import { createdAt } from '../../shared/db/columns.js';

/**
 * The catalogue and prices as the staff console set them: one row per change, the newest in force.
 * `overrides` holds only what differs from the server's configuration (mode prices and free-tier
 * values by key, the product list and the plan whole), so values nobody changed keep following the
 * environment. A trigger NOTIFYs `mirra_pricing_changes` on insert (migration 0031_pricing_settings)
 * and every process drops its cached copy.
 */
export const pricingSettings = pgTable('pricing_settings', {
  version: integer('version').primaryKey(),
  overrides: jsonb('overrides').notNull(),
  /** No foreign key: the history outlives the staff member's account, as the audit log does. */
  staffUserId: bigint('staff_user_id', { mode: 'number' }).notNull(),
  createdAt: createdAt(),
});
