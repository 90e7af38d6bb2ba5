import { bigint, index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt } from '../../shared/db/columns.js';

/**
 * What staff did: who, which action, on what, why, and the target before and after. Append-only:
 * the code has no path that changes or deletes a row, and the `staff_audit_log_append_only`
 * trigger (migration 0026_staff_console) refuses UPDATE and DELETE in the database too. Written in
 * the same transaction as the action it records.
 */
export const staffAuditLog = pgTable(
  'staff_audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** No foreign key: the record outlives the staff member's and the target's accounts. */
    staffUserId: bigint('staff_user_id', { mode: 'number' }).notNull(),
    action: text('action').notNull(),
    targetKind: text('target_kind').notNull(),
    targetId: text('target_id').notNull(),
    reason: text('reason').notNull().default(''),
    before: jsonb('before'),
    after: jsonb('after'),
    createdAt: createdAt(),
  },
  (t) => [
    index('staff_audit_log_target_idx').on(t.targetKind, t.targetId, t.id),
    index('staff_audit_log_created_idx').on(t.createdAt),
  ],
);
