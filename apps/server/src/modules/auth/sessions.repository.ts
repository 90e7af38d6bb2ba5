import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../shared/db/client.js';
import { refreshTokens, tokenFamilies } from './auth.tables.js';
import { users } from '../users/users.tables.js';

export const sessionsRepository = {
  async isBanned(db: DbOrTx, userId: number): Promise<boolean> {
    const [row] = await db.select({ bannedAt: users.bannedAt }).from(users).where(eq(users.id, userId));
    return Boolean(row?.bannedAt);
  },

  async createFamily(db: DbOrTx, userId: number): Promise<string> {
    const [row] = await db.insert(tokenFamilies).values({ userId }).returning({ id: tokenFamilies.id });
    return row!.id;
  },

  async insertRefreshToken(
    db: DbOrTx,
    values: { jti: string; familyId: string; userId: number; expiresAt: Date },
  ): Promise<void> {
    await db.insert(refreshTokens).values(values);
  },

  /**
   * Locks the token row so two refreshes racing with the same token cannot both succeed; with
   * whether its owner may still sign in (`userIsActive` null when the account is gone).
   */
  async findRefreshTokenForUpdate(db: DbOrTx, jti: string) {
    const [row] = await db
      .select({
        token: refreshTokens,
        family: tokenFamilies,
        userIsActive: users.isActive,
        userBannedAt: users.bannedAt,
      })
      .from(refreshTokens)
      .innerJoin(tokenFamilies, eq(tokenFamilies.id, refreshTokens.familyId))
      .leftJoin(users, eq(users.id, refreshTokens.userId))
      .where(eq(refreshTokens.jti, jti))
      .for('update', { of: refreshTokens });
    return row;
  },

  async markRefreshTokenUsed(db: DbOrTx, jti: string, at: Date): Promise<void> {
    await db.update(refreshTokens).set({ usedAt: at }).where(eq(refreshTokens.jti, jti));
  },

  async revokeFamily(db: DbOrTx, familyId: string, reason: string, at: Date): Promise<void> {
    await db
      .update(tokenFamilies)
      .set({ revokedAt: at, revokedReason: reason })
      .where(and(eq(tokenFamilies.id, familyId), isNull(tokenFamilies.revokedAt)));
  },

  /** Ends every sign-in of a user, optionally keeping the one making the request. */
  async revokeUserFamilies(
    db: DbOrTx,
    userId: number,
    reason: string,
    at: Date,
    exceptFamilyId?: string,
  ): Promise<void> {
    await db
      .update(tokenFamilies)
      .set({ revokedAt: at, revokedReason: reason })
      .where(
        and(
          eq(tokenFamilies.userId, userId),
          isNull(tokenFamilies.revokedAt),
          exceptFamilyId ? ne(tokenFamilies.id, exceptFamilyId) : sql`true`,
        ),
      );
  },
};
