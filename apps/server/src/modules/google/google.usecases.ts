import type { TSignInPair } from '@mirra/contracts';
import type { GoogleDeps } from './google.deps.js';
import type { Tx } from '../../shared/db/client.js';
import { AppError } from '../../shared/errors.js';
import { issueSession } from '../auth/index.js';
import {
  type UserRow,
  createUser,
  findUserByEmail,
  findUserByGoogleSub,
  updateUser,
} from '../users/index.js';
import { GoogleKeysUnavailableError, type GoogleIdentity } from './google-verifier.js';
import { newUserFromGoogle } from './google.models.js';

/**
 * Google sign-in: a verified ID token signs in the account that has this Google id, else links to
 * the account with the same verified email, else creates one. Signed in already, it links Google
 * to the caller — one person, one account, one balance.
 */
export async function signInWithGoogle(
  deps: GoogleDeps,
  credential: string,
  caller: UserRow | null,
  referralCode?: string | null,
): Promise<TSignInPair> {
  const identity = await verifyCredential(deps, credential);
  for (let attempt = 0; ; attempt++) {
    try {
      const { pair, linkedUserId, created } = await deps.db.transaction(async (tx) => {
        const { user, linked, created } = await findOrLinkUser(
          tx,
          identity,
          caller,
          referralCode,
          deps.config.welcomeCredits,
          deps.now(),
        );
        if (!user.isActive) {
          throw new AppError({ code: 'auth.invalid_credentials', detail: 'This account is disabled.' });
        }
        await updateUser(tx, user.id, deps.now(), { lastLogin: deps.now() });
        return {
          pair: await issueSession(deps, tx, user.id),
          linkedUserId: linked ? user.id : null,
          created,
        };
      });
      // The account's existing Bearer sessions are cached in this process with the row from before
      // the link (google_linked false); other processes hear of it through the users trigger.
      if (linkedUserId !== null) deps.sessionCache.forgetUser(linkedUserId);
      return { ...pair, created };
    } catch (error) {
      // Two first sign-ins with one Google account at once (One Tap and the button, a double
      // click): the loser hits the unique Google id or email. Once more, it finds the winner's row.
      if (attempt === 0 && isUniqueViolation(error)) continue;
      throw error;
    }
  }
}

async function verifyCredential(deps: GoogleDeps, credential: string): Promise<GoogleIdentity> {
  if (!deps.google) {
    throw new AppError({
      code: 'auth.google_unavailable',
      detail: 'Google sign-in is not configured on this server.',
    });
  }
  try {
    return await deps.google.verify(credential);
  } catch (error) {
    if (error instanceof GoogleKeysUnavailableError) {
      // Our side cannot check any token right now; the credential itself may be fine.
      throw new AppError({
        code: 'auth.google_unavailable',
        detail: 'Google sign-in is temporarily unavailable. Try again later.',
        cause: error,
      });
    }
    throw new AppError({ code: 'auth.google_invalid', detail: 'Invalid Google credential.', cause: error });
  }
}

/**
 * The account to sign in; `linked` when Google was attached to an account that existed before,
 * `created` when this sign-in made it (or opened, for the first time, an e-mail sign-up never activated).
 */
async function findOrLinkUser(
  tx: Tx,
  identity: GoogleIdentity,
  caller: UserRow | null,
  referralCode: string | null | undefined,
  welcomeCredits: number,
  now: Date,
): Promise<{ user: UserRow; linked: boolean; created: boolean }> {
  const bySub = await findUserByGoogleSub(tx, identity.sub);
  if (caller) {
    if (bySub && bySub.id !== caller.id) {
      throw new AppError({
        code: 'users.identity_taken',
        detail: 'This Google account is already linked to another Mirra account.',
      });
    }
    if (bySub) return { user: bySub, linked: false, created: false };
    return {
      user: await updateUser(tx, caller.id, now, { googleSub: identity.sub }),
      linked: true,
      created: false,
    };
  }
  if (bySub) return { user: bySub, linked: false, created: false };
  const byEmail =
    identity.email && identity.emailVerified ? await findUserByEmail(tx, identity.email) : undefined;
  if (byEmail) {
    // Google has verified the address, which is what the activation email would prove.
    const user = await updateUser(tx, byEmail.id, now, { googleSub: identity.sub, isActive: true });
    // A sign-up whose activation link was never opened had not started: it starts now.
    return { user, linked: true, created: !byEmail.isActive };
  }
  return {
    user: await createUser(tx, newUserFromGoogle(identity), referralCode, { welcomeCredits }),
    linked: false,
    created: true,
  };
}

const GOOGLE_SUB_UNIQUE = 'users_google_sub_unique';
const EMAIL_UNIQUE = 'users_email_unique';

function isUniqueViolation(error: unknown): boolean {
  // drizzle wraps the pg error; the SQLSTATE and constraint are on it or on its cause.
  const e = error as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const pgError = e.code ? e : e.cause;
  return (
    pgError?.code === '23505' &&
    (pgError.constraint === GOOGLE_SUB_UNIQUE || pgError.constraint === EMAIL_UNIQUE)
  );
}
