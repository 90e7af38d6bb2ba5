import { createHash } from 'node:crypto';
import { GenerationStatus, VIDEO_DURATIONS, type TGenerationStatus } from '@mirra/contracts';

const { NEW, IN_QUEUE, IN_PROGRESS, COMPLETED, ERROR, FAILED } = GenerationStatus;

/**
 * Every allowed status change, in one place. ERROR is a refusal or bad input (no face, moderation);
 * FAILED is our or the engine's fault (crash, timeout, retries exhausted). Both refund.
 * IN_PROGRESS → IN_QUEUE is a retry after a transient engine error.
 */
export const allowedTransitions: Record<TGenerationStatus, readonly TGenerationStatus[]> = {
  [NEW]: [IN_QUEUE, IN_PROGRESS, ERROR, FAILED],
  [IN_QUEUE]: [IN_PROGRESS, ERROR, FAILED],
  [IN_PROGRESS]: [IN_QUEUE, COMPLETED, ERROR, FAILED],
  [COMPLETED]: [],
  [ERROR]: [],
  [FAILED]: [],
};

export function canTransition(from: TGenerationStatus, to: TGenerationStatus): boolean {
  return allowedTransitions[from].includes(to);
}

/** The statuses a generation may be in for a change to `to` to be allowed. */
export function statusesAllowedBefore(to: TGenerationStatus): TGenerationStatus[] {
  return (Object.keys(allowedTransitions).map(Number) as TGenerationStatus[]).filter((from) =>
    allowedTransitions[from].includes(to),
  );
}

/** Midnight of the user's local day, from the browser's `timezone` cookie (minutes, as getTimezoneOffset). */
export function startOfLocalDay(now: Date, timezoneOffsetMinutes: number): Date {
  const local = new Date(now.getTime() - timezoneOffsetMinutes * 60_000);
  local.setUTCHours(0, 0, 0, 0);
  return new Date(local.getTime() + timezoneOffsetMinutes * 60_000);
}

/** Reads the `timezone` cookie; anything odd counts as UTC. Offsets range from -14 h to +12 h. */
export function parseTimezoneOffset(cookie: string | undefined): number {
  if (!cookie || !/^-?\d{1,4}$/.test(cookie.trim())) return 0;
  const minutes = Number(cookie);
  return minutes >= -840 && minutes <= 720 ? minutes : 0;
}

/** A seed the user did not choose: random, in the 31-bit range every engine accepts. */
export function randomSeed(random: () => number = Math.random): number {
  return Math.floor(random() * 2 ** 31);
}

/** Sizes of the WebP renditions for feeds and lists (never larger than the original). */
export const VARIANT_WIDTHS = [256, 512, 1024] as const;

export function variantWidths(originalWidth: number): number[] {
  const widths = VARIANT_WIDTHS.filter((w) => w < originalWidth);
  return [...widths, Math.min(originalWidth, 2048)];
}

/** A client's Idempotency-Key: 8–128 letters, digits, '-' or '_' (a UUID fits). */
const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{8,128}$/;

export function isValidIdempotencyKey(key: string): boolean {
  return IDEMPOTENCY_KEY.test(key);
}

/** What a create or repeat asks for, as validated (defaults applied, text trimmed). */
export interface GenerationRequestInputs {
  mode: string;
  prompt: string;
  guidance: number;
  images: readonly string[];
  model_uuid?: string | null;
  post_uuid?: string | null;
  style?: string | null;
  seed?: number | null;
  duration?: number | null;
  aspect?: string | null;
  /** The generation a repeat starts again. */
  repeatOf?: string | null;
}

/**
 * A fingerprint of a keyed request's inputs, stored beside its Idempotency-Key: the same key with
 * other inputs is a client bug (or a key reused on purpose) and must not silently answer with the
 * generation the first inputs made. Field order and absent-versus-null do not change it.
 */
export function generationRequestHash(inputs: GenerationRequestInputs): string {
  const canonical = [
    inputs.mode,
    inputs.prompt,
    inputs.guidance,
    [...inputs.images],
    inputs.model_uuid ?? null,
    inputs.post_uuid ?? null,
    inputs.style ?? null,
    inputs.seed ?? null,
    inputs.duration ?? null,
    inputs.repeatOf ?? null,
    // Only when given, so requests without it hash as they did before it existed.
    ...(inputs.aspect ? [inputs.aspect] : []),
  ];
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

/**
 * Whether a generation made under an Idempotency-Key answers a request with these inputs. One
 * made before hashes were stored (no hash) is taken as the same request.
 */
export function isSameKeyedRequest(storedHash: string | null, requestHash: string): boolean {
  return storedHash === null || storedHash === requestHash;
}

/** Video lengths are the offered ones only (VIDEO_DURATIONS), each priced per second. */
export function isVideoDuration(seconds: number): boolean {
  return (VIDEO_DURATIONS as readonly number[]).includes(seconds);
}

/** Premium subscribers' generations run ahead of everyone else's (graphile-worker runs lower first). */
export function generationJobPriority(premium: boolean): number {
  return premium ? -10 : 0;
}

/**
 * How a face result stands against the likeness threshold: shown (`pass`), made once more with a
 * new seed by the same engine list (`retry`, only on its first try), or failed and refunded
 * (`refund`). A threshold of 0 shows everything.
 */
export function likenessVerdict(
  likeness: number,
  threshold: number,
  retriesMade: number,
): 'pass' | 'retry' | 'refund' {
  if (threshold <= 0 || likeness >= threshold) return 'pass';
  return retriesMade < MAX_LIKENESS_RETRIES ? 'retry' : 'refund';
}

/** A face result below the likeness threshold is made again once; a second miss is refunded. */
export const MAX_LIKENESS_RETRIES = 1;

/**
 * The seed a likeness retry makes its picture with: another seed (the same one would make the
 * same picture), derived from the first so a rerun of the retry makes the same picture again.
 */
export function likenessRetrySeed(seed: number): number {
  return (seed + 104_729) % 2 ** 31;
}
