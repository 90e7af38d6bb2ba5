import { and, eq, like } from 'drizzle-orm';
import { GenerationStatus, isTerminalStatus } from '@mirra/contracts';
import type { AppDeps } from '../../app/deps.js';
import { generations } from '../../shared/db/schema.js';
import { EngineError } from '../engine.types.js';
import { engineFailureOutcome, finishGeneration } from '../../modules/generations/generations.jobs.js';
import { generationsRepository } from '../../modules/generations/generations.repository.js';
import { failGeneration } from '../../modules/generations/generations.usecases.js';
import { refusedBySafety } from './fal.models.js';

/** fal's webhook body (`WebHookResponse`): the result's payload, or an error and its details. */
export interface FalWebhookBody {
  request_id?: string;
  status?: string;
  error?: string;
  payload?: unknown;
  payload_error?: string;
}

export type FalWebhookOutcome = 'finished' | 'already finished' | 'unknown request';

/**
 * A verified webhook finishes the generation whose stored fal job it names, as the polling worker
 * would: OK → the result is fetched and stored (moderation, variants); ERROR → failed and refunded
 * (a safety refusal as moderated). Duplicates and late deliveries after the end change nothing:
 * completing and failing are conditional, and the refund has its idempotency key.
 */
export async function handleFalWebhook(
  deps: AppDeps,
  requestId: string,
  body: FalWebhookBody,
): Promise<FalWebhookOutcome> {
  const generation = await deps.db.query.generations.findFirst({
    where: and(eq(generations.provider, 'fal'), like(generations.providerJobId, `${requestId} %`)),
  });
  if (!generation) return 'unknown request';
  if (isTerminalStatus(generation.status)) return 'already finished';
  const engine = deps.engines.byName('fal');
  if (body.status !== 'OK') {
    const error = refusedBySafety(body.payload)
      ? new EngineError('engine.refused', body.error ?? 'refused', false)
      : new EngineError('engine.failed', body.error ?? body.payload_error ?? 'fal failed', true);
    await failGeneration(deps, generation, engineFailureOutcome(error));
    return 'finished';
  }
  if (!engine?.fetchResult) throw new Error('The fal engine is not configured.');
  // Completing takes a generation in progress: one whose worker run died (back in the queue) is
  // claimed first, and handed back to the queue if this delivery cannot finish it.
  const claimed =
    generation.status === GenerationStatus.IN_PROGRESS
      ? generation
      : await generationsRepository.transition(
          deps.db,
          generation.id,
          deps.now(),
          GenerationStatus.IN_PROGRESS,
        );
  if (!claimed) return 'already finished';
  try {
    const output = await engine.fetchResult(claimed.providerJobId!, {
      signal: AbortSignal.timeout(deps.config.generationTimeoutSeconds * 1000),
      onProgress: () => undefined,
    });
    await finishGeneration(deps, claimed, output, 'webhook');
  } catch (error) {
    if (error instanceof EngineError && !error.retryable) {
      await failGeneration(deps, claimed, engineFailureOutcome(error));
      return 'finished';
    }
    if (claimed !== generation) {
      await generationsRepository.transition(deps.db, generation.id, deps.now(), GenerationStatus.IN_QUEUE);
    }
    throw error; // fal delivers the webhook again; the polling worker may finish it first
  }
  return 'finished';
}
