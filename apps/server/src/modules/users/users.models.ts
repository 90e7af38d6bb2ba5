import { randomInt } from 'node:crypto';

// No 0/o/1/l/i: codes are read aloud and typed from screenshots.
const REFERRAL_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A fresh referral code; uniqueness is the database's job (the caller retries on conflict). */
export function generateReferralCode(length = 8): string {
  let code = '';
  for (let i = 0; i < length; i++) code += REFERRAL_ALPHABET[randomInt(REFERRAL_ALPHABET.length)];
  return code;
}

/** The cookie in which the web app keeps the last partner link followed, for 30 days. */
export const REFERRAL_COOKIE = 'ref';

/**
 * The referral code a new account is attributed to: the one the request names, else the one the
 * browser kept from the last partner link it followed (last click wins).
 */
export function pickReferralCode(
  named: string | null | undefined,
  cookies: Record<string, string | undefined> | undefined,
): string | null {
  return normaliseReferralCode(named) ?? normaliseReferralCode(cookies?.[REFERRAL_COOKIE]);
}

/** Referral codes arrive from links and start parameters (`ref_<code>`); anything else is ignored. */
export function normaliseReferralCode(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const code = raw.trim().replace(/^ref_/, '').toLowerCase();
  return /^[a-z0-9]{4,32}$/.test(code) ? code : null;
}

export function splitUserRefs(refs: Array<number | string>): { ids: number[]; uuids: string[] } {
  const ids: number[] = [];
  const uuids: string[] = [];
  for (const ref of refs) {
    if (typeof ref === 'number') ids.push(ref);
    else uuids.push(ref);
  }
  return { ids: [...new Set(ids)], uuids: [...new Set(uuids.map((u) => u.toLowerCase()))] };
}

interface LoginRateLimits {
  windowSeconds: number;
  loginPerIp: number;
  loginPerEmail: number;
  loginFailuresPerAccount: number;
}

/**
 * The sign-in limits of one attempt. Per address and per email-from-that-address count every
 * attempt; failures per account count failed ones from everywhere (see loginWithPassword). No
 * limit counts one email from all addresses, so nobody elsewhere can use up its owner's attempts.
 */
export function loginLimits(limits: LoginRateLimits, email: string, ip: string) {
  const windowSeconds = limits.windowSeconds;
  return {
    perAddress: { key: `login:ip:${ip}`, limit: limits.loginPerIp, windowSeconds },
    perEmailAndAddress: { key: `login:email-ip:${email}:${ip}`, limit: limits.loginPerEmail, windowSeconds },
    failuresPerAccount: {
      key: `login:failures:${email}`,
      limit: limits.loginFailuresPerAccount,
      windowSeconds,
    },
  };
}

/** Remembers that an account signed in from an address (it is trusted while the account is under attack). */
export const knownAddressKey = (userId: number, ip: string) => `login-address:${userId}:${ip}`;
