import { COMMON_PASSWORDS } from './common-passwords.js';

export const PASSWORD_MIN_LENGTH = 8;

export interface PasswordContext {
  email?: string | null;
  firstName?: string | null;
  lastName?: string | null;
}

/**
 * Django's default password validators, with their messages word for word (clients show them as
 * they come): every problem at once, so the user fixes them in one go.
 */
export function findPasswordProblems(password: string, context: PasswordContext = {}): string[] {
  const problems: string[] = [];
  const similarTo = findSimilarAttribute(password, context);
  if (similarTo) problems.push(`The password is too similar to the ${similarTo}.`);
  if (password.length < PASSWORD_MIN_LENGTH) {
    problems.push(`This password is too short. It must contain at least ${PASSWORD_MIN_LENGTH} characters.`);
  }
  if (COMMON_PASSWORDS.has(password.toLowerCase().trim())) {
    problems.push('This password is too common.');
  }
  if (/^\d+$/.test(password)) problems.push('This password is entirely numeric.');
  return problems;
}

function findSimilarAttribute(password: string, context: PasswordContext): string | null {
  const pw = password.toLowerCase();
  const attributes: Array<[string, string | null | undefined]> = [
    ['email address', context.email],
    ['first name', context.firstName],
    ['last name', context.lastName],
  ];
  for (const [label, raw] of attributes) {
    if (!raw) continue;
    const value = raw.toLowerCase();
    // The whole value, its words, and an email's local part (people reuse their login as password).
    const localPart = value.includes('@') ? [value.split('@')[0]!] : [];
    const parts = [value, ...localPart, ...value.split(/[\W_]+/)].filter((part) => part.length >= 3);
    if (parts.some((part) => similarity(pw, part) >= 0.7)) return label;
  }
  return null;
}

/**
 * Ratio of matching characters (as Python's SequenceMatcher.quick_ratio, on the longest common
 * substring): 2·M / (|a| + |b|).
 */
export function similarity(a: string, b: string): number {
  if (!a.length || !b.length) return 0;
  let longest = 0;
  const previous = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = 0;
    for (let j = 1; j <= b.length; j++) {
      const above = previous[j]!;
      previous[j] = a[i - 1] === b[j - 1] ? diagonal + 1 : 0;
      longest = Math.max(longest, previous[j]!);
      diagonal = above;
    }
  }
  return (2 * longest) / (a.length + b.length);
}
