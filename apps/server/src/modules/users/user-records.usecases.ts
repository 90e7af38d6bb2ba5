import type { Db, DbOrTx } from '../../shared/db/client.js';
import { usersRepository, type NewUserRow, type UserRow } from './users.repository.js';

/**
 * The person records other modules read and change, inside their own transactions (`db` may be
 * one). Only the users module writes SQL for people.
 */
export const findUserById = (db: DbOrTx, id: number): Promise<UserRow | undefined> =>
  usersRepository.findById(db, id);

/** Locks the person's row until the transaction ends, so their paid actions run one at a time. */
export const lockUser = (tx: DbOrTx, id: number): Promise<UserRow | undefined> =>
  usersRepository.lockById(tx, id);

export const findUserByEmail = (db: DbOrTx, email: string): Promise<UserRow | undefined> =>
  usersRepository.findByEmail(db, email);

export const findUserByTelegramId = (db: DbOrTx, telegramId: number): Promise<UserRow | undefined> =>
  usersRepository.findByTelegramId(db, telegramId);

export const findUserByGoogleSub = (db: DbOrTx, sub: string): Promise<UserRow | undefined> =>
  usersRepository.findByGoogleSub(db, sub);

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Staff search: people whose email starts with `q`, or whose Telegram id or uuid is `q`. */
export const searchUsersForStaff = (db: DbOrTx, q: string, limit = 20): Promise<UserRow[]> => {
  const term = q.trim();
  return usersRepository.searchForStaff(
    db,
    {
      emailPrefix: term,
      telegramId: /^\d{1,15}$/.test(term) ? Number(term) : null,
      uuid: UUID_PATTERN.test(term) ? term.toLowerCase() : null,
    },
    limit,
  );
};

/** People named by id or uuid (one query for a page of authors). */
export const findUsersByRefs = (db: DbOrTx, ids: number[], uuids: string[]): Promise<UserRow[]> =>
  usersRepository.findManyByRefs(db, ids, uuids);

/** The active person behind a session family that is not revoked (the Bearer token check). */
export const findActiveUserForSession = (
  db: Db,
  userId: number,
  familyId: string,
): Promise<UserRow | undefined> => usersRepository.findActiveForSession(db, userId, familyId);

/** Changes a person's record; `at` (the caller's clock, deps.now()) stamps updated_at. */
export const updateUser = (db: DbOrTx, id: number, at: Date, values: Partial<NewUserRow>): Promise<UserRow> =>
  usersRepository.update(db, id, at, values);
