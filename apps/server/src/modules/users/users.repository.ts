import { and, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../shared/db/client.js';
import { users } from './users.tables.js';
import { tokenFamilies } from '../auth/auth.tables.js';

export type UserRow = typeof users.$inferSelect;

function prepareSessionLookup(db: Db) {
  return db
    .select({ user: users })
    .from(users)
    .innerJoin(
      tokenFamilies,
      and(
        eq(tokenFamilies.id, sql.placeholder('familyId')),
        eq(tokenFamilies.userId, users.id),
        isNull(tokenFamilies.revokedAt),
      ),
    )
    .where(and(eq(users.id, sql.placeholder('userId')), eq(users.isActive, true), isNull(users.bannedAt)))
    .prepare('users_find_active_for_session');
}
const preparedSessionLookups = new WeakMap<Db, ReturnType<typeof prepareSessionLookup>>();
export type NewUserRow = typeof users.$inferInsert;

/** SQL for people; no decisions here. */
export const usersRepository = {
  async findById(db: DbOrTx, id: number): Promise<UserRow | undefined> {
    const [row] = await db.select().from(users).where(eq(users.id, id));
    return row;
  },

  /** The user's row, locked until the transaction ends (decisions on flags such as `hasLora`). */
  async lockById(tx: DbOrTx, id: number): Promise<UserRow | undefined> {
    const [row] = await tx.select().from(users).where(eq(users.id, id)).for('update');
    return row;
  },

  async findByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
    const [row] = await db.select().from(users).where(eq(users.email, email));
    return row;
  },

  /** Staff search: an email (its start, any case), a Telegram id or a uuid; newest first. */
  async searchForStaff(
    db: DbOrTx,
    terms: { emailPrefix: string; telegramId: number | null; uuid: string | null },
    limit: number,
  ): Promise<UserRow[]> {
    const escaped = terms.emailPrefix.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
    return db
      .select()
      .from(users)
      .where(
        or(
          sql`lower(${users.email}) LIKE ${escaped + '%'}`,
          terms.telegramId !== null ? eq(users.telegramId, terms.telegramId) : undefined,
          terms.uuid !== null ? eq(users.uuid, terms.uuid) : undefined,
        ),
      )
      .orderBy(desc(users.id))
      .limit(limit);
  },

  async findByTelegramId(db: DbOrTx, telegramId: number): Promise<UserRow | undefined> {
    const [row] = await db.select().from(users).where(eq(users.telegramId, telegramId));
    return row;
  },

  async findByGoogleSub(db: DbOrTx, sub: string): Promise<UserRow | undefined> {
    const [row] = await db.select().from(users).where(eq(users.googleSub, sub));
    return row;
  },

  async findByReferralCode(db: DbOrTx, code: string): Promise<UserRow | undefined> {
    const [row] = await db.select().from(users).where(eq(users.referralCode, code));
    return row;
  },

  async findByUsername(db: DbOrTx, username: string): Promise<UserRow | undefined> {
    const [row] = await db
      .select()
      .from(users)
      .where(sql`lower(${users.username}) = lower(${username}) AND ${users.username} <> ''`);
    return row;
  },

  async findManyByRefs(db: DbOrTx, ids: number[], uuids: string[]): Promise<UserRow[]> {
    if (!ids.length && !uuids.length) return [];
    return db
      .select()
      .from(users)
      .where(
        or(
          ids.length ? inArray(users.id, ids) : undefined,
          uuids.length ? inArray(users.uuid, uuids) : undefined,
        ),
      );
  },

  /**
   * The user behind an access token, in one round trip: only if active and only while the token's
   * sign-in session has not been revoked (logout, password change, refresh-token reuse).
   */
  async findActiveForSession(db: Db, userId: number, familyId: string): Promise<UserRow | undefined> {
    // On every authenticated request that misses the session cache: a named prepared statement,
    // built once per process, saves drizzle's query building and PostgreSQL's parse and plan.
    let statement = preparedSessionLookups.get(db);
    if (!statement) {
      statement = prepareSessionLookup(db);
      preparedSessionLookups.set(db, statement);
    }
    const [row] = await statement.execute({ userId, familyId });
    return row?.user;
  },

  async insert(db: DbOrTx, values: NewUserRow): Promise<UserRow> {
    const [row] = await db.insert(users).values(values).returning();
    return row!;
  },

  /** Marks an inactive account active (and signed in now); undefined when it already was. */
  async activate(db: DbOrTx, id: number, at: Date): Promise<UserRow | undefined> {
    const [row] = await db
      .update(users)
      .set({ isActive: true, lastLogin: at, updatedAt: at })
      .where(and(eq(users.id, id), eq(users.isActive, false)))
      .returning();
    return row;
  },

  async update(db: DbOrTx, id: number, at: Date, values: Partial<NewUserRow>): Promise<UserRow> {
    const [row] = await db
      .update(users)
      .set({ ...values, updatedAt: at })
      .where(eq(users.id, id))
      .returning();
    return row!;
  },
};
