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

/** Where the onboarding leads when it ends or is skipped (`?next=`, home when unsafe or absent). */
export function welcomeNext(search: string): string {
  return safeReturnPath(new URLSearchParams(search).get('next')) ?? '/';
}

/** The onboarding, then on to `next` (home when it is not a safe path inside the app). */
export function welcomePath(next: string | null | undefined): string {
  const path = safeReturnPath(next);
  return path && path !== '/' ? `/welcome/?next=${encodeURIComponent(path)}` : '/welcome/';
}
