import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';

/**
 * A request id a caller (a proxy, a load balancer) may choose: short, and only characters that are
 * safe in a log line and a header. Anything else is replaced by one of ours.
 */
const ACCEPTED_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

export function isAcceptableRequestId(value: unknown): value is string {
  return typeof value === 'string' && ACCEPTED_REQUEST_ID.test(value);
}

/** The incoming X-Request-Id when it is acceptable, else a fresh uuid. */
export function requestIdFor(incoming: string | string[] | undefined): string {
  return isAcceptableRequestId(incoming) ? incoming : randomUUID();
}

/** `2xx`, `4xx`, `5xx`…: metrics group responses by class, not by each status. */
export function statusClass(statusCode: number): string {
  return `${Math.floor(statusCode / 100)}xx`;
}

/** Requests that matched no route share one label, so unknown paths cannot grow the label set. */
export const UNMATCHED_ROUTE = 'unmatched';

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;

export function isLoopbackAddress(address: string | undefined): boolean {
  return Boolean(address && LOOPBACK.test(address));
}

export type MetricsAccess = 'allowed' | 'bad_token' | 'not_loopback';

/**
 * Who may read /metrics: with METRICS_TOKEN set, whoever sends `Authorization: Bearer <token>`;
 * without it, only this machine (the socket's peer is a loopback address, whatever a proxy says).
 */
export function decideMetricsAccess(options: {
  token: string | undefined;
  authorization: string | undefined;
  peerAddress: string | undefined;
}): MetricsAccess {
  if (options.token) {
    return isSameSecret(options.authorization ?? '', `Bearer ${options.token}`) ? 'allowed' : 'bad_token';
  }
  return isLoopbackAddress(options.peerAddress) ? 'allowed' : 'not_loopback';
}

export type ReadinessCheck = 'database' | 'queue' | 'storage' | 'engines';
export type CheckResult = 'ok' | 'failed';

/** Ready when every check passed; the failed ones are named for whoever reads the probe. */
export function summarizeReadiness(results: Record<ReadinessCheck, CheckResult>): {
  isReady: boolean;
  failed: ReadinessCheck[];
} {
  const failed = (Object.keys(results) as ReadinessCheck[]).filter((check) => results[check] !== 'ok');
  return { isReady: failed.length === 0, failed };
}

/** The engine names configured for modes that no engine of this build has. */
export function unknownEngines(
  configured: Record<string, readonly string[]>,
  known: readonly string[],
): string[] {
  return [...new Set(Object.values(configured).flat())].filter((name) => !known.includes(name));
}

/** Compares in constant time (digests of equal length), so the token cannot be guessed bytewise. */
function isSameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
