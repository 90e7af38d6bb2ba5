/**
 * Failures of a store a request needs rather than of the request itself: the database that cannot
 * be reached or is restarting, a disk that is full or read-only, a bucket that refuses a write.
 * They pass, so the answer is 503 with Retry-After (a payment provider then delivers its webhook
 * again, a person sees "try again"), never 500, which means a bug and is never retried.
 */
/** `unreachable`: a socket refused or dropped (the database or a bucket, whichever it was). */
export type Outage = 'database' | 'storage' | 'unreachable';

/** How long a client is told to wait before trying again after an outage. */
export const OUTAGE_RETRY_AFTER_SECONDS = 30;

/**
 * PostgreSQL refusing because it is shutting down, starting, or out of connections
 * (57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now, 53300
 * too_many_connections), and SQLSTATE class 08: the connection itself failed.
 */
const DATABASE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** What the socket says when nothing listens or the peer went away mid-query. */
const NETWORK_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH']);
/** node-postgres's own words for a connection lost or never made. */
const DATABASE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Connection ended unexpectedly',
];
/** A file system that takes no more writes: read-only, full, over quota, denied, failing. */
const STORAGE_ERRNOS = new Set(['EROFS', 'ENOSPC', 'EDQUOT', 'EACCES', 'EPERM', 'EIO']);

/** The kind of outage behind `error` (its causes and an AggregateError's errors included), or null. */
export function findOutage(error: unknown): Outage | null {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0 && seen.size < 20) {
    const current = queue.shift();
    if (!current || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    const found = outageOf(current as Record<string, unknown>);
    if (found) return found;
    queue.push((current as { cause?: unknown }).cause);
    const errors = (current as { errors?: unknown }).errors;
    if (Array.isArray(errors)) queue.push(...errors);
  }
  return null;
}

function outageOf(error: Record<string, unknown>): Outage | null {
  const code = typeof error.code === 'string' ? error.code : '';
  const message = typeof error.message === 'string' ? error.message : '';
  // The AWS SDK marks every answer of an S3 service with `$metadata`; a write it refused
  // (throttled, bucket gone, access denied) is the store being out of order for this request.
  if (error.$metadata && typeof error.$metadata === 'object') return 'storage';
  if (STORAGE_ERRNOS.has(code) && typeof error.syscall === 'string') return 'storage';
  if (DATABASE_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return 'database';
  if (NETWORK_ERRNOS.has(code)) return 'unreachable';
  if (DATABASE_MESSAGES.some((words) => message.includes(words))) return 'database';
  return null;
}
