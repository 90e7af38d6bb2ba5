import { GenerationStatus, isTerminalStatus } from '@mirra/contracts';
import type { TGeneration, TGenerationFailureReason } from '../../lib/api-types';

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

/** Failures with their own headline; their server detail is generic, so it is not repeated. */
const FAILURE_HEADLINES: Record<string, string> = {
  'generations.result_moderated': 'messages.moderationFailed',
  'generations.engine_failed': 'result.failure.engineFailed',
  'generations.timeout': 'result.failure.timeout',
  'generations.likeness_failed': 'result.failure.likeness',
};

/**
 * A failed generation as the result screen says it: the i18n key of the headline ('Moderation
 * failed, credits refunded' for a refused result), and whether the server's detail adds to it
 * (a refusal of the input says what was not understood; an unknown code says what happened).
 * When the engine named the reason (`error_reason`), `reasonKey` words it in the user's language
 * and stands in for the engine's English detail.
 */
export function describeFailure(
  errorCode: string | null,
  errorReason: TGenerationFailureReason | null = null,
): { key: string; showDetail: boolean; reasonKey?: string } {
  if (errorCode && errorCode in FAILURE_HEADLINES) {
    return { key: FAILURE_HEADLINES[errorCode]!, showDetail: false };
  }
  if (errorCode === 'generations.bad_input') {
    return errorReason
      ? {
          key: 'result.failure.badInput',
          showDetail: false,
          reasonKey: `result.failure.reasons.${errorReason}`,
        }
      : { key: 'result.failure.badInput', showDetail: true };
  }
  return { key: 'result.failedTitle', showDetail: true };
}

/**
 * Applies a live event to the generation on screen. A final status is not applied from the event:
 * the result or the failure's reason come only with the full record, read right after, so the
 * screen goes from the bar straight to the outcome. Nothing moves a generation out of a final
 * status (a late event after the final read).
 */
export function applyEvent(
  generation: TGeneration,
  event: { status: number; progress: number; queue_position?: number | null },
): TGeneration {
  if (isFinished(generation.status)) return generation;
  if (isFinished(event.status)) {
    const progress = event.status === GenerationStatus.COMPLETED ? 100 : generation.progress;
    return { ...generation, progress };
  }
  return {
    ...generation,
    status: event.status as TGeneration['status'],
    progress: event.progress,
    // Events without the field (older servers) leave the place in the provider's queue as it was.
    queue_position: event.queue_position === undefined ? generation.queue_position : event.queue_position,
  };
}
