/**
 * A fresh idempotency key for one money request (a pay-out, a transfer): a retry of a failed send
 * reuses it, the next request after a success gets a new one.
 */
export const newClientKey = (): string =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
