import type { DbOrTx } from './db/client.js';

/**
 * Writes a staff action to the audit log inside the transaction that makes the change, given
 * the target before and after. A module's staff use case calls it with the rows it changed, so
 * the log and the change commit (or roll back) together.
 */
export type RecordStaffChange = (tx: DbOrTx, change: { before: unknown; after: unknown }) => Promise<void>;
