/**
 * Error reports through the official Sentry browser SDK (Sentry and GlitchTip both ingest what it
 * sends). Loaded lazily by `error-reporting.ts`, only when the server names a DSN, so the SDK never
 * weighs on the first page. Nothing personal leaves: every event and breadcrumb goes through
 * `scrubEvent`/`scrubBreadcrumb`, which cut e-mail addresses, tokens (JWTs, long random strings,
 * `token=`/`password=`-like parameters) and query strings, keep only the user's id, and drop
 * request bodies, cookies and headers; the SDK's own data collection is off and there is no replay
 * or feedback widget.
 */
import * as Sentry from '@sentry/browser';
import type { Breadcrumb, ErrorEvent } from '@sentry/browser';

export interface ErrorReportingTarget {
  dsn: string;
  release: string;
  environment: string;
}

export interface ReportContext {
  /** The route pattern the error happened on (`/post/:uuid/`). */
  route(): string;
  /** The page's address without its query. */
  url(): string;
  userId(): number | null;
}

/** At most this many reports per page load, and each distinct error once. */
export const MAX_REPORTS_PER_PAGE = 20;

const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
const JWT = /\beyJ[\w-]+\.[\w-]+\.[\w-]+/g;
const SECRET_PARAMETER =
  /\b(token|access|refresh|password|secret|key|code|init_?data|tgWebAppData|hash)=([^&\s"'#]+)/gi;
const QUERY = /(https?:\/\/[^\s?#"']+)\?[^\s#"')]*/g;
const LONG_RANDOM = /\b(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{32,}\b/g;

/** A text with e-mail addresses, tokens and query strings cut out. */
export function scrub(text: string): string {
  return text
    .replace(JWT, '[token]')
    .replace(QUERY, '$1')
    .replace(SECRET_PARAMETER, '$1=[redacted]')
    .replace(EMAIL, '[email]')
    .replace(LONG_RANDOM, '[token]');
}

/** Every string inside a value scrubbed (keys that carry headers or bodies dropped). */
function scrubDeep<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return scrub(value) as T;
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item: unknown) => scrubDeep(item, depth + 1)) as T;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (DROPPED_KEYS.has(key.toLowerCase())) continue;
    out[key] = scrubDeep(item, depth + 1);
  }
  return out as T;
}

/** Never sent, wherever they appear: headers (Authorization), cookies, bodies, init data. */
const DROPPED_KEYS = new Set([
  'authorization',
  'cookie',
  'cookies',
  'headers',
  'body',
  'data',
  'request_body_size',
  'response_body_size',
  'initdata',
  'init_data',
]);

/**
 * The event as it may leave: scrubbed texts, the route pattern and the user's id as tags and
 * user, the page's address without its query, no request headers or body, no IP address.
 */
export function scrubEvent(event: ErrorEvent, context: ReportContext): ErrorEvent {
  const userId = context.userId();
  const { request: _request, user: _user, extra, breadcrumbs, exception, message, ...rest } = event;
  return {
    ...rest,
    ...(message ? { message: scrub(message) } : {}),
    ...(exception ? { exception: scrubDeep(exception) } : {}),
    ...(extra ? { extra: scrubDeep(extra) } : {}),
    ...(breadcrumbs ? { breadcrumbs: breadcrumbs.map(scrubBreadcrumb) } : {}),
    tags: { ...event.tags, route: context.route() },
    request: { url: scrub(context.url()), headers: { 'User-Agent': navigator.userAgent } },
    ...(userId ? { user: { id: String(userId) } } : {}),
  };
}

/** A breadcrumb with its texts scrubbed and no request or response bodies. */
export function scrubBreadcrumb(breadcrumb: Breadcrumb): Breadcrumb {
  const { message, data, ...rest } = breadcrumb;
  const kept = data
    ? Object.fromEntries(
        Object.entries(data)
          .filter(([key]) => !DROPPED_KEYS.has(key.toLowerCase()) && !/body/i.test(key))
          .map(([key, value]) => [key, scrubDeep(value)]),
      )
    : undefined;
  return { ...rest, ...(message ? { message: scrub(message) } : {}), ...(kept ? { data: kept } : {}) };
}

function keyOf(event: ErrorEvent): string {
  const value = event.exception?.values?.[0];
  return value ? `${value.type}: ${value.value}` : (event.message ?? '');
}

/** The SDK's options: our scrubbing and per-page limits, no PII, no console or click breadcrumbs. */
export function sentryOptions(target: ErrorReportingTarget, context: ReportContext): Sentry.BrowserOptions {
  const seen = new Set<string>();
  return {
    dsn: target.dsn,
    release: target.release,
    environment: target.environment,
    // What the SDK itself may collect (this SDK's successor of `sendDefaultPii: false`): no user
    // data (nor the IP address Sentry would infer from the request), cookies, headers, bodies or
    // query strings.
    dataCollection: {
      userInfo: false,
      cookies: false,
      httpHeaders: false,
      httpBodies: [],
      urlQueryParams: false,
      stackFrameVariables: false,
    },
    // Errors only: no performance tracing, no session replay, no feedback widget.
    tracesSampleRate: 0,
    integrations: (defaults) => [
      ...defaults.filter(
        (integration) => integration.name !== 'Breadcrumbs' && integration.name !== 'Console',
      ),
      // Console lines and clicked elements may carry what the user typed; fetch/navigation do not
      // (their addresses are scrubbed below).
      Sentry.breadcrumbsIntegration({ dom: false }),
    ],
    beforeBreadcrumb: (breadcrumb) => scrubBreadcrumb(breadcrumb),
    beforeSend: (event) => {
      const key = keyOf(event);
      if (seen.size >= MAX_REPORTS_PER_PAGE || seen.has(key)) return null;
      seen.add(key);
      return scrubEvent(event, context);
    },
  };
}

/**
 * Starts the SDK (it reports uncaught errors and unhandled rejections from now on) and returns a
 * function that reports an error by hand (an error boundary's, a failed lazy load, an early one).
 */
export function startSentry(
  target: ErrorReportingTarget,
  context: ReportContext,
  extra: Partial<Sentry.BrowserOptions> = {},
): (error: unknown) => void {
  Sentry.init({ ...sentryOptions(target, context), ...extra });
  return (error) => {
    Sentry.captureException(error, { mechanism: { type: 'onerror', handled: false } });
  };
}
