/**
 * Start parameters of a Mini App launch: `p_<token>` opens that profile, `qs_<id>`
 * reloads the app with a saved query string.
 */
export type StartAction = { type: 'profile'; token: string } | { type: 'qs'; id: string } | null;

export const AFTER_REDIRECT_MARKER = 'after_redirect';
const START_PARAM_PATTERN = /^[\w-]{1,512}$/;

export function parseStartParam(value: string | null | undefined): StartAction {
  if (!value || !START_PARAM_PATTERN.test(value)) return null;
  if (value.startsWith('p_') && value.length > 2) return { type: 'profile', token: value.slice(2) };
  if (value.startsWith('qs_') && value.length > 3) return { type: 'qs', id: value.slice(3) };
  return null;
}

export function profilePath(token: string): string {
  return `/profile/${encodeURIComponent(token)}/`;
}

/** The current address with the saved query string and the after-redirect marker. */
export function buildQsRedirect(href: string, qs: string): string {
  const url = new URL(href);
  const params = new URLSearchParams(qs.replace(/^\?/, ''));
  params.set(AFTER_REDIRECT_MARKER, '1');
  url.search = params.toString();
  return url.toString();
}

export function hasAfterRedirectMarker(search: string): boolean {
  return new URLSearchParams(search).has(AFTER_REDIRECT_MARKER);
}
