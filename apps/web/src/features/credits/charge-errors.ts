import { ApiError } from '../../lib/api-error';

/**
 * The two refusals of a paid action that open a dialog instead of an alert: not enough credits
 * (402, with the shortfall) and the free tier's pause (429, with how long to wait).
 */
export type ChargeRefusal =
  | { kind: 'credits'; difference: number; balance: number | null; required: number | null }
  | { kind: 'limit'; waitSeconds: number; first: number; seconds: number };

/** A refusal with when it was received (ms): the limit dialog counts the pause down from it. */
export type ReceivedRefusal = ChargeRefusal & { at: number };

/** When the free tier lets the next generation start, in ms since the epoch. */
export function pauseEndsAt(refusal: ReceivedRefusal): number {
  return refusal.kind === 'limit' ? refusal.at + refusal.waitSeconds * 1000 : refusal.at;
}

const numberField = (body: Record<string, unknown>, key: string): number | null =>
  typeof body[key] === 'number' && Number.isFinite(body[key]) ? body[key] : null;

export function readChargeRefusal(error: unknown): ChargeRefusal | null {
  if (!(error instanceof ApiError) || !error.body || typeof error.body !== 'object') return null;
  const body = error.body as Record<string, unknown>;
  if (error.code === 'credits.insufficient') {
    const required = numberField(body, 'required');
    const balance = numberField(body, 'balance');
    const difference =
      numberField(body, 'difference') ??
      (required !== null && balance !== null ? Math.max(1, required - balance) : 1);
    return { kind: 'credits', difference, balance, required };
  }
  if (error.code === 'generations.rate_limited') {
    return {
      kind: 'limit',
      // At least a second: a zero would retry at once into the same refusal.
      waitSeconds: Math.max(1, numberField(body, 'wait_seconds') ?? 1),
      first: numberField(body, 'first') ?? 0,
      seconds: numberField(body, 'seconds') ?? numberField(body, 'wait_seconds') ?? 0,
    };
  }
  return null;
}
