import { createHash } from 'node:crypto';

/**
 * Who may frame the app: Telegram's web clients, which open the Mini App in an iframe (the mobile
 * and desktop clients use their own web views, which are not framing). Nobody else, so no other
 * site can overlay it to trick a click.
 */
export const FRAME_ANCESTORS = ['https://web.telegram.org', 'https://*.telegram.org'];

/** Google Identity Services: its script, the button's styles, frames and calls. */
const GOOGLE_SIGN_IN = {
  script: 'https://accounts.google.com/gsi/client',
  style: 'https://accounts.google.com/gsi/style',
  frame: 'https://accounts.google.com/gsi/',
  connect: 'https://accounts.google.com/gsi/',
};

/** `'sha256-…'` sources for each inline `<script>` of a page (those without `src`). */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const [, attributes = '', body = ''] = match;
    if (/\bsrc\s*=/i.test(attributes) || body.length === 0) continue;
    hashes.push(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
  }
  return hashes;
}

/**
 * The Content-Security-Policy of every response, as helmet's directives. Scripts only from this
 * origin (plus the built page's own inline theme script, by hash, and Google's sign-in script when
 * it is configured): an injected `<script>` or inline handler cannot run, and fetches can only
 * reach this origin, so tokens in localStorage cannot be sent elsewhere. Images may come from any
 * https origin (Telegram's profile photos) and from data:/blob: (upload previews); styles may be
 * inline because React and the theme set style attributes. With media in S3, pictures, videos
 * and the fetch of a result reused as a source come from the store's (or its CDN's) origin.
 * With SENTRY_DSN_WEB set, the web app's error reports go to that DSN's origin.
 */
export function contentSecurityPolicy(options: {
  inlineScriptHashes: string[];
  isGoogleSignInEnabled: boolean;
  /** Where browsers fetch media from when it is not this origin (S3 or its CDN). */
  mediaOrigin?: string | null;
  /** The web app's error reporting DSN (SENTRY_DSN_WEB): its origin receives error reports. */
  errorReportingDsn?: string | null;
}): Record<string, string[]> {
  const google = options.isGoogleSignInEnabled;
  const media = options.mediaOrigin ? [options.mediaOrigin] : [];
  const errorReports = options.errorReportingDsn ? [new URL(options.errorReportingDsn).origin] : [];
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...options.inlineScriptHashes, ...(google ? [GOOGLE_SIGN_IN.script] : [])],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'", ...(google ? [GOOGLE_SIGN_IN.style] : [])],
    'img-src': ["'self'", 'data:', 'blob:', 'https:', ...media],
    'media-src': ["'self'", 'blob:', 'data:', ...media],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...media, ...errorReports, ...(google ? [GOOGLE_SIGN_IN.connect] : [])],
    'frame-src': google ? [GOOGLE_SIGN_IN.frame] : ["'none'"],
    'worker-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': FRAME_ANCESTORS,
  };
}

/**
 * The API docs page (Swagger UI) loads only its own bundled files. Its package's default policy
 * would add upgrade-insecure-requests, which breaks the page on a plain-http LAN address.
 */
export const API_DOCS_CSP =
  "default-src 'self'; script-src 'self'; script-src-attr 'none'; style-src 'self' 'unsafe-inline'; " +
  "img-src 'self' data:; font-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'self'; " +
  "frame-ancestors 'self'";

export type HstsMode = 'auto' | 'on' | 'off';

/** One year, subdomains included (what helmet sends by default). */
export const HSTS_HEADER = 'max-age=31536000; includeSubDomains';

/**
 * Whether to send Strict-Transport-Security: browsers ignore it over plain http, and sending it
 * from a host that also serves http (a LAN address, localhost) only confuses; `auto` sends it when
 * the request came over https, directly or per a trusted proxy's X-Forwarded-Proto.
 */
export function shouldSendHsts(mode: HstsMode, protocol: string): boolean {
  if (mode === 'on') return true;
  if (mode === 'off') return false;
  return protocol === 'https';
}
