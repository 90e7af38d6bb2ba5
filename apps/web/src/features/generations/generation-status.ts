import { GenerationStatus, isTerminalStatus } from '@mirra/contracts';
import type { TGeneration } from '../../lib/api-types';

/** What the result screen shows for a status: waiting in line, working, the result, or a failure. */
export type GenerationPhase = 'queued' | 'running' | 'completed' | 'failed';

export function phaseOf(status: number): GenerationPhase {
  if (status === GenerationStatus.COMPLETED) return 'completed';
  if (status === GenerationStatus.ERROR || status === GenerationStatus.FAILED) return 'failed';
  if (status === GenerationStatus.IN_PROGRESS) return 'running';
  return 'queued';
}

export const isFinished = isTerminalStatus;

/** Queued work already shows a sliver of the bar, so the page never looks stuck at zero. */
const QUEUED_PERCENT = 3;

/**
 * The bar's width in percent: never backwards (events may arrive out of order, and a retry puts a
 * generation back in the queue), full once completed, and short of 100 while the result is stored.
 */
export function progressPercent(status: number, progress: number, shownBefore = 0): number {
  const phase = phaseOf(status);
  if (phase === 'completed') return 100;
  if (phase === 'failed') return Math.max(0, Math.min(100, shownBefore));
  const reported = Number.isFinite(progress) ? Math.round(progress) : 0;
  const floor = phase === 'queued' ? QUEUED_PERCENT : Math.max(QUEUED_PERCENT, reported);
  return Math.min(99, Math.max(shownBefore, floor));
}

/** Failure codes a finished generation may carry, each with its own translated headline. */
const FAILURE_CODES = new Set([
  'generations.engine_failed',
  'generations.bad_input',
  'generations.timeout',
  'generations.image_required',
]);

/**
 * The i18n key of a failure's headline. A refused result says the spec's 'Moderation failed,
 * credits refunded'; an unknown code gets the general one (its detail is shown beneath).
 */
export function failureKey(errorCode: string | null): string {
  if (errorCode === 'generations.result_moderated') return 'messages.moderationFailed';
  if (errorCode && FAILURE_CODES.has(errorCode)) return `errors.${errorCode}`;
  return 'result.failedTitle';
}

/**
 * Applies a live event to the generation on screen. An event never moves a generation backwards
 * out of a final status (a late event after the final read must not undo it).
 */
export function applyEvent(
  generation: TGeneration,
  event: { status: number; progress: number },
): TGeneration {
  if (isFinished(generation.status)) return generation;
  return {
    ...generation,
    status: event.status as TGeneration['status'],
    progress: event.progress,
  };
}
