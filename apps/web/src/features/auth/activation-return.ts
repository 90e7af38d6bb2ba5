import { readStored, STORAGE_KEYS, writeStored } from '../../lib/storage';

/** Pages a person should not be sent back to once signed in: the sign-in and sign-up pages. */
const SIGN_IN_PAGES = ['/sign-in/', '/sign-up/'];

/**
 * A path inside this app to return to, or null: it must start with one slash (`//host` and
 * `/\host` would leave the site) and not be a sign-in page.
 */
export function safeReturnPath(value: string | null | undefined): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  const pathname = value.split(/[?#]/, 1)[0]!;
  if (SIGN_IN_PAGES.includes(pathname)) return null;
  return value;
}

/** Remembers, at sign-up, where the person started, for the activation link opened later. */
export function rememberActivationReturn(path: string | null | undefined): void {
  writeStored(STORAGE_KEYS.activationReturn, safeReturnPath(path));
}

/** Where to go after the activation link signed the person in (once; home when nothing was kept). */
export function takeActivationReturn(): string {
  const path = safeReturnPath(readStored(STORAGE_KEYS.activationReturn));
  writeStored(STORAGE_KEYS.activationReturn, null);
  return path ?? '/';
}

/** The sign-up page's address carrying where the person started. */
export function signUpPath(returnTo: string | null | undefined): string {
  const path = safeReturnPath(returnTo);
  return path ? `/sign-up/?next=${encodeURIComponent(path)}` : '/sign-up/';
}
