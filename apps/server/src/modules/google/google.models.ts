import { isLanguage, withoutControlCharacters, type TLanguage } from '@mirra/contracts';
import type { NewUserRow } from '../users/index.js';
import type { GoogleIdentity } from './google-verifier.js';

const NAME_MAX_LENGTH = 150;

/** Our interface language for a Google locale (BCP 47: `ru`, `en-GB`), or null for one we lack. */
export function languageFromLocale(locale: string | null): TLanguage | null {
  const base = locale?.trim().toLowerCase().split(/[-_]/)[0];
  return isLanguage(base) ? base : null;
}

/**
 * The account a first Google sign-in creates. Active at once (Google vouched for the person); the
 * email is kept only when Google verified it, since an email on the account can sign in and reset
 * the password, and an unverified one could be someone else's.
 */
export function newUserFromGoogle(identity: GoogleIdentity): Omit<NewUserRow, 'referralCode' | 'refererId'> {
  return {
    email: identity.emailVerified ? identity.email : null,
    googleSub: identity.sub,
    isActive: true,
    // Kept, not refused, but without control characters (PostgreSQL refuses NUL outright).
    firstName: withoutControlCharacters(identity.givenName).slice(0, NAME_MAX_LENGTH),
    lastName: withoutControlCharacters(identity.familyName).slice(0, NAME_MAX_LENGTH),
    language: languageFromLocale(identity.locale),
  };
}
