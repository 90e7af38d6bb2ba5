import type { TStaffRole } from '@mirra/contracts';
import type { Db } from '../../shared/db/client.js';
import { findUserByEmail, lockUser, updateUser } from '../users/index.js';
import { toUserSummary } from './admin.models.js';
import { adminRepository } from './admin.repository.js';

/**
 * Gives (or with `null`, takes away) a staff role from the command line, by email. The change is
 * audited like any staff action, with no staff member behind it (id 0: the operator's shell).
 */
export async function grantStaffRole(
  deps: { db: Db; now: () => Date },
  email: string,
  role: TStaffRole | null,
): Promise<{ found: false } | { found: true; uuid: string; changed: boolean }> {
  const user = await findUserByEmail(deps.db, email.trim().toLowerCase());
  if (!user) return { found: false };
  const changed = await deps.db.transaction(async (tx) => {
    const before = await lockUser(tx, user.id);
    if (!before || before.staffRole === role) return false;
    const after = await updateUser(tx, user.id, deps.now(), { staffRole: role });
    await adminRepository.insertAudit(tx, {
      staffUserId: 0,
      action: role ? 'staff.grant' : 'staff.revoke',
      targetKind: 'user',
      targetId: user.uuid,
      reason: 'command line',
      before: toUserSummary(before),
      after: toUserSummary(after),
    });
    return true;
  });
  return { found: true, uuid: user.uuid, changed };
}
