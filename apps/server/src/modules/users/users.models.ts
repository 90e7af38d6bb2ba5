import { randomInt } from 'node:crypto';

// No 0/o/1/l/i: codes are read aloud and typed from screenshots.
const REFERRAL_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A fresh referral code; uniqueness is the database's job (the caller retries on conflict). */
export function generateReferralCode(length = 8): string {
  let code = '';
  for (let i = 0; i < length; i++) code += REFERRAL_ALPHABET[randomInt(REFERRAL_ALPHABET.length)];
  return code;
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
