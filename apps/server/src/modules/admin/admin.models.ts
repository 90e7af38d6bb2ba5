import type { TAdminUserSummary, TStaffRole } from '@mirra/contracts';
import type { UserRow } from '../users/index.js';

/** What the audit log and the console show of a person. */
export function toUserSummary(user: UserRow): TAdminUserSummary {
  return {
    uuid: user.uuid,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    username: user.username,
    telegram_id: user.telegramId,
    telegram_username: user.telegramUsername,
    staff_role: (user.staffRole as TStaffRole | null) ?? null,
    banned: user.bannedAt !== null,
    date_joined: user.dateJoined.toISOString(),
  };
}

/**
 * The ledger key of a staff credit change: the client's key, scoped to the person, so the same
 * click sent twice moves credits once and two people's keys never collide.
 */
export const staffCreditKey = (userId: number, clientKey: string) => `staff:${userId}:${clientKey}`;
