import { matchPath } from 'react-router';

/**
 * Access rules: `login-required` opens the sign-in popup for a guest and cancels the
 * navigation; `guest-only` sends a signed-in user to `/`; `soft` opens at once while the session
 * is checked in the background; `open` checks nothing.
 */
export type AccessRule = 'soft' | 'login-required' | 'guest-only' | 'open';
export type AccessDecision = 'allow' | 'sign-in' | 'home';

export function decideAccess(rule: AccessRule, isLoggedIn: boolean): AccessDecision {
  if (rule === 'login-required' && !isLoggedIn) return 'sign-in';
  if (rule === 'guest-only' && isLoggedIn) return 'home';
  return 'allow';
}

export interface RouteMeta {
  access: AccessRule;
  /** i18n key of the page title. */
  title: string;
  bottomMenu?: boolean;
  /** The page keeps its state (scroll, inputs) when you leave and come back. */
  keepAlive?: boolean;
  /** A narrow settings page with a back button and no menu. */
  compact?: boolean;
  /** On wide screens the shell shows the title above the page (pages without their own heading). */
  heading?: boolean;
  /**
   * A login-required page that shows a guest its own glimpse behind the sign-in popup (a shared
   * post: the picture blurred and its author), instead of the bare sign-in screen.
   */
  guestView?: boolean;
}

export interface RouteMetaEntry extends RouteMeta {
  path: string;
}

/** The first entry of the table whose path matches (trailing slashes ignored, like the router). */
export function findRouteMeta<T extends RouteMetaEntry>(table: readonly T[], pathname: string): T | null {
  // Literal segments win over parameters, as in the router: /generate/face_swap/ before /generate/:mode/.
  const ranked = [...table].sort((a, b) => specificity(b.path) - specificity(a.path));
  return ranked.find((entry) => matchPath({ path: entry.path, end: true }, pathname)) ?? null;
}

function specificity(path: string): number {
  if (path === '*') return -1;
  return path
    .split('/')
    .filter(Boolean)
    .reduce((score, segment) => score + (segment.startsWith(':') ? 2 : 3), 0);
}
