import { and, desc, eq, gte, like, lt } from 'drizzle-orm';
import type { DbOrTx } from '../../shared/db/client.js';
import { staffAuditLog } from './admin.tables.js';
import { users } from '../users/users.tables.js';

export type StaffAuditRow = typeof staffAuditLog.$inferSelect;

/**
 * SQL for the staff audit log. Append-only: there is an insert and reads, never an update or a
 * delete (the database refuses both too).
 */
export const adminRepository = {
  async insertAudit(tx: DbOrTx, values: typeof staffAuditLog.$inferInsert): Promise<void> {
    await tx.insert(staffAuditLog).values(values);
  },

  /** The latest staff actions on one target, newest first, with the staff member's uuid. */
  async listAuditForTarget(db: DbOrTx, targetKind: string, targetId: string, limit: number) {
    return db
      .select({ entry: staffAuditLog, staffUuid: users.uuid })
      .from(staffAuditLog)
      .leftJoin(users, eq(users.id, staffAuditLog.staffUserId))
      .where(and(eq(staffAuditLog.targetKind, targetKind), eq(staffAuditLog.targetId, targetId)))
      .orderBy(desc(staffAuditLog.id))
      .limit(limit);
  },

  /** The log filtered, newest first, keyed by id for paging. */
  async listAudit(
    db: DbOrTx,
    filter: { staffUserId?: number; actionPrefix?: string; targetId?: string; from?: Date; before?: Date },
    beforeId: number | null,
    limit: number,
  ) {
    const escaped = filter.actionPrefix?.replace(/[\\%_]/g, (char) => `\\${char}`);
    return db
      .select({ entry: staffAuditLog, staffUuid: users.uuid })
      .from(staffAuditLog)
      .leftJoin(users, eq(users.id, staffAuditLog.staffUserId))
      .where(
        and(
          filter.staffUserId !== undefined ? eq(staffAuditLog.staffUserId, filter.staffUserId) : undefined,
          escaped ? like(staffAuditLog.action, `${escaped}%`) : undefined,
          filter.targetId ? eq(staffAuditLog.targetId, filter.targetId) : undefined,
          filter.from ? gte(staffAuditLog.createdAt, filter.from) : undefined,
          filter.before ? lt(staffAuditLog.createdAt, filter.before) : undefined,
          beforeId ? lt(staffAuditLog.id, beforeId) : undefined,
        ),
      )
      .orderBy(desc(staffAuditLog.id))
      .limit(limit);
  },
};
