import { isLanguage, type TTokenPair } from '@mirra/contracts';
import type { AppDeps } from '../../app/deps.js';
import { AppError } from '../../shared/errors.js';
import { issueSession } from '../auth/sessions.usecases.js';
import { usersRepository, type UserRow } from '../users/users.repository.js';
import { createUser } from '../users/users.usecases.js';

/**
 * Google sign-in: a verified ID token signs in the account that has this Google id, else links to
 * the account with the same verified email, else creates one. Signed in already, it links Google
 * to the caller — one person, one account, one balance.
 */
export async function signInWithGoogle(
  deps: AppDeps,
  credential: string,
  caller: UserRow | null,
  referralCode?: string | null,
): Promise<TTokenPair> {
  if (!deps.google) {
    throw new AppError({
      code: 'auth.google_unavailable',
      detail: 'Google sign-in is not configured on this server.',
    });
  }
  const identity = await deps.google.verify(credential).catch((error: unknown) => {
    throw new AppError({ code: 'auth.google_invalid', detail: 'Invalid Google credential.', cause: error });
  });
  return deps.db.transaction(async (tx) => {
    const bySub = await usersRepository.findByGoogleSub(tx, identity.sub);
    let user: UserRow;
    if (caller) {
      if (bySub && bySub.id !== caller.id) {
        throw new AppError({
          code: 'users.identity_taken',
          detail: 'This Google account is already linked to another Mirra account.',
        });
      }
      user = bySub ?? (await usersRepository.update(tx, caller.id, { googleSub: identity.sub }));
    } else if (bySub) {
      user = bySub;
    } else {
      const byEmail =
        identity.email && identity.emailVerified
          ? await usersRepository.findByEmail(tx, identity.email)
          : undefined;
      if (byEmail) {
        // Google has verified the address, which is what the activation email would prove.
        user = await usersRepository.update(tx, byEmail.id, { googleSub: identity.sub, isActive: true });
      } else {
        user = await createUser(
          tx,
          {
            email: identity.emailVerified ? identity.email : null,
            googleSub: identity.sub,
            isActive: true,
            firstName: identity.givenName.slice(0, 150),
            lastName: identity.familyName.slice(0, 150),
            language:
              identity.locale && isLanguage(identity.locale.split('-')[0])
                ? identity.locale.split('-')[0]!
                : null,
          },
          referralCode,
        );
      }
    }
    if (!user.isActive)
      throw new AppError({ code: 'auth.invalid_credentials', detail: 'This account is disabled.' });
    await usersRepository.update(tx, user.id, { lastLogin: deps.now() });
    return issueSession(deps, tx, user.id);
  });
}
