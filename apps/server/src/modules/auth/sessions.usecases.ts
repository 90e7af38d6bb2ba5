import { randomUUID } from 'node:crypto';
import type { TTokenPair } from '@mirra/contracts';
import type { AuthDeps } from './auth.deps.js';
import type { DbOrTx } from '../../shared/db/client.js';
import { accountBanned, AppError } from '../../shared/errors.js';
import { sessionsRepository } from './sessions.repository.js';

type SessionDeps = Pick<AuthDeps, 'db' | 'tokens' | 'now' | 'sessionCache'>;

/**
 * Starts a sign-in session: a new refresh-token family and its first token pair. Every way of
 * signing in ends here, so a banned account is refused here once for all of them.
 */
export async function issueSession(
  deps: Pick<AuthDeps, 'tokens' | 'now'>,
  db: DbOrTx,
  userId: number,
): Promise<TTokenPair> {
  if (await sessionsRepository.isBanned(db, userId)) throw accountBanned();
  const familyId = await sessionsRepository.createFamily(db, userId);
  return issuePair(deps, db, userId, familyId);
}

async function issuePair(
  deps: Pick<AuthDeps, 'tokens' | 'now'>,
  db: DbOrTx,
  userId: number,
  familyId: string,
): Promise<TTokenPair> {
  const now = deps.now();
  const jti = randomUUID();
  const refresh = await deps.tokens.signRefresh(userId, familyId, jti, now);
  await sessionsRepository.insertRefreshToken(db, { jti, familyId, userId, expiresAt: refresh.expiresAt });
  const access = await deps.tokens.signAccess(userId, familyId, now);
  return { refresh: refresh.token, access: access.token };
}

const revoked = () => new AppError({ code: 'auth.token_revoked', detail: 'Token is blacklisted' });

/**
 * Exchanges a refresh token for a new pair (rotation). A refresh token works once: presenting a
 * used one means it was copied, so its whole family is revoked and everyone holding it signs in again.
 */
export async function refreshSession(deps: SessionDeps, refreshToken: string): Promise<TTokenPair> {
  const claims = await deps.tokens.verify(refreshToken, 'refresh', deps.now());
  const outcome = await deps.db.transaction(async (tx) => {
    const row = await sessionsRepository.findRefreshTokenForUpdate(tx, claims.jti);
    if (!row || row.token.userId !== claims.userId) return { error: revoked() };
    if (row.family.revokedAt) return { error: revoked() };
    if (row.token.usedAt) {
      await sessionsRepository.revokeFamily(tx, row.family.id, 'refresh_token_reuse', deps.now());
      return { error: revoked() };
    }
    if (row.userBannedAt) return { error: accountBanned() };
    if (!row.userIsActive) {
      return {
        error: new AppError({
          code: 'auth.invalid_credentials',
          detail: 'No active account found for the given token.',
        }),
      };
    }
    await sessionsRepository.markRefreshTokenUsed(tx, claims.jti, deps.now());
    return { pair: await issuePair(deps, tx, claims.userId, row.family.id) };
  });
  // The reuse revocation above must commit, so the error is thrown after the transaction.
  if ('error' in outcome) {
    deps.sessionCache.forgetUser(claims.userId);
    throw outcome.error;
  }
  return outcome.pair;
}

/**
 * Ends the caller's session. With a refresh token in the body, that token's family is revoked
 * (it must belong to the caller); otherwise the family of the access token used for the request.
 */
export async function logout(
  deps: SessionDeps,
  caller: { userId: number; familyId: string | null },
  refreshToken: string | undefined,
): Promise<void> {
  let familyId = caller.familyId;
  if (refreshToken) {
    const claims = await deps.tokens.verify(refreshToken, 'refresh', deps.now()).catch(() => null);
    if (claims && claims.userId === caller.userId) familyId = claims.familyId;
  }
  if (familyId) await sessionsRepository.revokeFamily(deps.db, familyId, 'logout', deps.now());
  deps.sessionCache.forgetUser(caller.userId);
}

/** Revokes every open session of a person (all, or all but the one that asked). */
export async function revokeUserSessions(
  db: DbOrTx,
  userId: number,
  reason: string,
  at: Date,
  exceptFamilyId?: string,
): Promise<void> {
  await sessionsRepository.revokeUserFamilies(db, userId, reason, at, exceptFamilyId);
}
