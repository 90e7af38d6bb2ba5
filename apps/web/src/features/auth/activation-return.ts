import { safeReturnPath, welcomePath } from '../../lib/return-path';
import { readStored, STORAGE_KEYS, writeStored } from '../../lib/storage';

export { safeReturnPath, welcomePath };

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
