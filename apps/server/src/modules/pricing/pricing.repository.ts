import { desc, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../shared/db/client.js';
import { pricingSettings } from './pricing.tables.js';

export type PricingSettingsRow = typeof pricingSettings.$inferSelect;

/** Any fixed number: the key of the lock that puts changes to the catalogue one after another. */
const CHANGE_LOCK_KEY = 7_317_031;

/** SQL for the console's catalogue and prices: an insert per change, the newest row in force. */
export const pricingRepository = {
  async latest(db: DbOrTx): Promise<PricingSettingsRow | undefined> {
    const [row] = await db.select().from(pricingSettings).orderBy(desc(pricingSettings.version)).limit(1);
    return row;
  },

  /** Held until the transaction ends: two admins saving at once get consecutive versions. */
  async lockChanges(tx: DbOrTx): Promise<void> {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${CHANGE_LOCK_KEY})`);
  },

  async insert(tx: DbOrTx, values: typeof pricingSettings.$inferInsert): Promise<void> {
    await tx.insert(pricingSettings).values(values);
  },
};
