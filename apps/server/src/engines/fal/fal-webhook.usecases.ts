import { EngineError, type GenerationStore, type ProviderJobOutcome } from '../engine.types.js';
import { encodeFalJob, refusedBySafety } from './fal.models.js';

/** fal's webhook body (`WebHookResponse`): the result's payload, or an error and its details. */
export interface FalWebhookBody {
  request_id?: string;
  status?: string;
  error?: string;
  payload?: unknown;
  payload_error?: string;
}

/**
 * A verified webhook finishes the generation whose stored fal job it names (through the
 * generations' port): OK → the result is fetched and stored; ERROR → failed and refunded, a
 * refusal by fal's safety checker as moderated.
 */
export function handleFalWebhook(
  generations: GenerationStore,
  requestId: string,
  body: FalWebhookBody,
): Promise<ProviderJobOutcome> {
  const job = { provider: 'fal', providerJobIdPrefix: encodeFalJob(requestId, '') };
  if (body.status === 'OK') return generations.finishProviderJob(job, { kind: 'done' });
  const error = refusedBySafety(body.payload)
    ? new EngineError('engine.refused', body.error ?? 'refused', false)
    : new EngineError('engine.failed', body.error ?? body.payload_error ?? 'fal failed', true);
  return generations.finishProviderJob(job, { kind: 'failed', error });
}
