/**
 * Uncaught errors and unhandled rejections of the web app, sent to a Sentry-compatible service when
 * the server's public config names a DSN (SENTRY_DSN_WEB). What runs before the first paint is
 * only this: two listeners that keep the first few errors. The config request runs once the page
 * is idle, and only with a DSN does the official SDK (`sentry-browser.ts`) load, so error reporting
 * costs the first page nothing.
 */
import type { ErrorReportingTarget } from './sentry-browser';
import { useSession } from './session';

/** Errors kept until the sender has loaded (or it turns out nothing is to be sent). */
const EARLY_LIMIT = 10;
let early: unknown[] | null = [];
let send: ((error: unknown) => void) | null = null;

/** Reports an error (an error boundary's, a failed lazy load); a no-op when reporting is off. */
export function reportError(error: unknown): void {
  if (send) send(error);
  else if (early && early.length < EARLY_LIMIT) early.push(error);
}

const onError = (event: ErrorEvent) => reportError(event.error ?? event.message);
const onRejection = (event: PromiseRejectionEvent) => reportError(event.reason);
let listeningOn: Window | null = null;

/** Keeps uncaught errors and unhandled rejections from now on, until the SDK takes over. */
export function catchUncaughtErrors(target: Window = window): void {
  target.addEventListener('error', onError);
  target.addEventListener('unhandledrejection', onRejection);
  listeningOn = target;
}

function stopCatching(): void {
  listeningOn?.removeEventListener('error', onError);
  listeningOn?.removeEventListener('unhandledrejection', onRejection);
  listeningOn = null;
}

/**
 * Once the page has painted and gone idle: asks the server where errors go; with a DSN, sends
 * the errors kept so far and every later one, tagged with the release and the route pattern
 * (`routeOf` turns an address into its route table entry, so ids in paths are not sent).
 */
export function startErrorReporting(
  routeOf: (pathname: string) => string,
  loadConfig: () => Promise<{ error_reporting?: ErrorReportingTarget | null }>,
): void {
  const start = async () => {
    const config = await loadConfig();
    const target = config.error_reporting;
    if (!target) {
      stopCatching();
      early = null;
      return;
    }
    const { startSentry } = await import('./sentry-browser');
    // The SDK's own handlers report uncaught errors and rejections from here on.
    stopCatching();
    send = startSentry(target, {
      route: () => routeOf(window.location.pathname),
      url: () => window.location.origin + window.location.pathname,
      userId: () => useSession.getState().user?.id ?? null,
    });
    const kept = early ?? [];
    early = null;
    kept.forEach(send);
  };
  const later = () => void start().catch(() => (early = null));
  const whenIdle = () => {
    if ('requestIdleCallback' in window) window.requestIdleCallback(later, { timeout: 5000 });
    else setTimeout(later, 1000);
  };
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}
