import type { Readable } from 'node:stream';
import type { z } from 'zod';
import type { ZAdminDeleteUserBody } from '@mirra/contracts';
import { AppError } from '../../shared/errors.js';
import {
  deleteAccountInTransaction,
  exportAccountOf,
  findUsersByRefs,
  type UserRow,
} from '../users/index.js';
import type { AdminDeps } from './admin.deps.js';
import { adminRepository } from './admin.repository.js';

const userNotFound = () => new AppError({ code: 'users.not_found', detail: 'Not found.' });

async function liveUser(deps: Pick<AdminDeps, 'db'>, uuid: string): Promise<UserRow> {
  const [user] = await findUsersByRefs(deps.db, [], [uuid]);
  if (!user || user.deletedAt) throw userNotFound();
  return user;
}

/**
 * A person asked staff for their data: the ZIP their own export gives. Handing it over is written
 * to the audit log (who, for whom, why) before a byte leaves.
 */
export async function exportUserOnRequest(
  deps: Pick<AdminDeps, 'db' | 'storage' | 'now'>,
  staff: UserRow,
  uuid: string,
  reason: string,
): Promise<{ fileName: string; stream: Readable }> {
  const user = await liveUser(deps, uuid);
  await deps.db.transaction((tx) =>
    adminRepository.insertAudit(tx, {
      staffUserId: staff.id,
      action: 'user.export',
      targetKind: 'user',
      targetId: user.uuid,
      reason,
      before: null,
      after: null,
    }),
  );
  return exportAccountOf(deps, user.id);
}

/**
 * A person asked staff to delete their account: the same deletion as their own (data, content,
 * sessions in one transaction, files by a job), with the audit record in that transaction. A
 * staff account is not deleted this way (its role is taken away first).
 */
export async function deleteUserOnRequest(
  deps: Pick<AdminDeps, 'db' | 'now' | 'sessionCache'>,
  staff: UserRow,
  uuid: string,
  body: z.output<typeof ZAdminDeleteUserBody>,
): Promise<{ ok: true }> {
  const user = await liveUser(deps, uuid);
  if (user.staffRole) {
    throw new AppError({ code: 'auth.permission_denied', detail: 'Staff accounts cannot be deleted.' });
  }
  await deps.db.transaction(async (tx) => {
    const deleted = await deleteAccountInTransaction(tx, user.id, body.posts, deps.now());
    if (!deleted) return;
    await adminRepository.insertAudit(tx, {
      staffUserId: staff.id,
      action: 'user.delete',
      targetKind: 'user',
      targetId: user.uuid,
      reason: body.reason,
      before: { email: user.email, telegram_id: user.telegramId, posts: body.posts },
      after: null,
    });
  });
  deps.sessionCache.forgetUser(user.id);
  return { ok: true };
}
