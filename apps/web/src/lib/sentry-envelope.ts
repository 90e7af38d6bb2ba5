/**
 * Error reports in Sentry's envelope format, sent with one `fetch` to the DSN's envelope endpoint
 * (what Sentry and GlitchTip ingest; the public key travels as `sentry_key`). Loaded lazily by
 * `error-reporting.ts`. Nothing personal leaves: e-mail addresses, tokens (JWTs, long random
 * strings, `token=`/`password=`-like parameters) and query strings are cut from every text.
 */

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

const SDK = { name: 'mirra.web', version: '1.0.0' };

/** The envelope endpoint of a DSN `https://<public key>@<host>[/<path>]/<project id>`. */
export function envelopeUrl(dsn: string): string {
  const url = new URL(dsn);
  const segments = url.pathname.split('/').filter(Boolean);
  const projectId = segments.pop();
  if (!url.username || !projectId) throw new Error('the DSN has no public key or project id');
  const prefix = segments.length ? `/${segments.join('/')}` : '';
  const query = new URLSearchParams({
    sentry_key: url.username,
    sentry_version: '7',
    sentry_client: `${SDK.name}/${SDK.version}`,
  });
  // Sentry's ingest path (`<prefix>/api/<project>/envelope/`), not one of Mirra's routes.
  const ingestPath = [prefix, 'api', projectId, 'envelope', ''].join('/');
  return `${url.protocol}//${url.host}${ingestPath}?${query}`;
}

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

interface Frame {
  function?: string;
  filename: string;
  lineno: number;
  colno: number;
  in_app: boolean;
}

const CHROME_FRAME = /^\s*at (?:(.+?) \()?(.+?):(\d+):(\d+)\)?\s*$/;
const GECKO_FRAME = /^\s*(.*?)@(.+?):(\d+):(\d+)\s*$/;

/** Stack frames of V8 and Gecko/WebKit stacks, oldest call first (as Sentry wants them). */
export function parseStack(stack: string | undefined): Frame[] {
  if (!stack) return [];
  const frames: Frame[] = [];
  for (const line of stack.split('\n').slice(0, 50)) {
    const match = CHROME_FRAME.exec(line) ?? GECKO_FRAME.exec(line);
    if (!match) continue;
    const [, fn, file = '', lineno = '0', colno = '0'] = match;
    const filename = scrub(file);
    frames.push({
      ...(fn ? { function: fn } : {}),
      filename,
      lineno: Number(lineno),
      colno: Number(colno),
      in_app: filename.startsWith(location.origin),
    });
  }
  return frames.reverse();
}

function describe(error: unknown): { type: string; value: string; stack?: string } {
  if (error instanceof Error)
    return { type: error.name || 'Error', value: error.message, stack: error.stack };
  if (typeof error === 'string') return { type: 'Error', value: error };
  try {
    return { type: 'NonError', value: JSON.stringify(error) ?? String(error) };
  } catch {
    return { type: 'NonError', value: String(error) };
  }
}

const randomId = () => crypto.randomUUID().replace(/-/g, '');

/** The event of one error, as Sentry's event payload. */
export function buildEvent(error: unknown, target: ErrorReportingTarget, context: ReportContext) {
  const { type, value, stack } = describe(error);
  const frames = parseStack(stack);
  const userId = context.userId();
  return {
    event_id: randomId(),
    timestamp: Date.now() / 1000,
    platform: 'javascript',
    level: 'error',
    logger: 'window',
    release: target.release,
    environment: target.environment,
    sdk: SDK,
    tags: { route: context.route() },
    request: { url: scrub(context.url()), headers: { 'User-Agent': navigator.userAgent } },
    ...(userId ? { user: { id: String(userId) } } : {}),
    exception: {
      values: [
        {
          type: scrub(type),
          value: scrub(value),
          ...(frames.length ? { stacktrace: { frames } } : {}),
          mechanism: { type: 'onerror', handled: false },
        },
      ],
    },
  };
}

/** An envelope of one event: the envelope header, the item header and the event, a line each. */
export function buildEnvelope(event: { event_id: string }, dsn: string): string {
  const header = { event_id: event.event_id, sent_at: new Date().toISOString(), dsn, sdk: SDK };
  return `${JSON.stringify(header)}\n${JSON.stringify({ type: 'event' })}\n${JSON.stringify(event)}\n`;
}

/**
 * A function that sends each error it is given (each distinct one once, at most
 * MAX_REPORTS_PER_PAGE). Sending never throws and never reports its own failures.
 */
export function createEnvelopeSender(
  target: ErrorReportingTarget & ReportContext,
  send: typeof fetch = (...args) => fetch(...args),
): (error: unknown) => void {
  const endpoint = envelopeUrl(target.dsn);
  const seen = new Set<string>();
  return (error) => {
    if (seen.size >= MAX_REPORTS_PER_PAGE) return;
    const { type, value } = describe(error);
    const key = `${type}: ${value}`;
    if (seen.has(key)) return;
    seen.add(key);
    const event = buildEvent(error, target, target);
    // text/plain: a "simple" request, so the browser sends it without a CORS preflight.
    void send(endpoint, {
      method: 'POST',
      body: buildEnvelope(event, target.dsn),
      headers: { 'Content-Type': 'text/plain;charset=UTF-8' },
      keepalive: true,
      credentials: 'omit',
    }).catch(() => undefined);
  };
}
