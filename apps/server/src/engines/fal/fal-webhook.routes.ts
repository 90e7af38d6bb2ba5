import { routes } from '@mirra/contracts';
import type { FastifyInstance } from 'fastify';
import type { SharedDeps } from '../../shared/deps.js';
import { AppError } from '../../shared/errors.js';
import { countingWebhookErrors } from '../../shared/metrics.js';
import { serve } from '../../shared/http/serve-route.js';
import type { GenerationStore } from '../engine.types.js';
import type { ModelTrainingStore } from '../trainer.types.js';
import { encodeFalJob } from './fal.models.js';
import {
  createFalJwksCache,
  FAL_NO_KEY_VERIFIES,
  verifyFalWebhook,
  type FalJwk,
} from './fal-webhook.models.js';
import { handleFalWebhook, type FalWebhookBody } from './fal-webhook.usecases.js';

export const FAL_WEBHOOK_PATH = routes.engines.falWebhook.path;

/** What fal's webhook needs: its settings, the clock, and the generations and trainings it may finish. */
export interface FalWebhookDeps extends Pick<SharedDeps, 'config' | 'now'> {
  generations: GenerationStore;
  trainings: ModelTrainingStore;
}

/**
 * fal's webhook: the raw body is kept to check fal's Ed25519 signature against its JWKS before
 * anything is read from it. It finishes the generation, or the digital model's training, whose
 * stored fal request it names (idempotent with the polling worker). Registered only when the fal engine is configured.
 */
export async function registerFalWebhookRoutes(app: FastifyInstance, deps: FalWebhookDeps): Promise<void> {
  const fal = deps.config.fal;
  if (!fal) return;
  const jwks = createFalJwksCache(fal.jwksUrl, fetch, deps.now);
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    );
    serve(scope, routes.engines.falWebhook, (request) =>
      countingWebhookErrors('fal', async () => {
        const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const verifyWith = (keys: FalJwk[]) =>
          verifyFalWebhook({
            headers: request.headers,
            rawBody,
            keys,
            nowSeconds: Math.floor(deps.now().getTime() / 1000),
            expectedUserId: fal.userId,
          });
        let verdict = verifyWith(await jwks.keys());
        if (!verdict.ok && verdict.reason === FAL_NO_KEY_VERIFIES) {
          // Signed with a key we have not seen: fal may have rotated it since our copy of its JWKS.
          const fresh = await jwks.refetched();
          if (fresh) verdict = verifyWith(fresh);
        }
        if (!verdict.ok) {
          request.log.warn({ reason: verdict.reason }, 'fal webhook refused');
          throw new AppError({ code: 'engines.webhook_forbidden', detail: 'Forbidden.' });
        }
        let body: FalWebhookBody;
        try {
          body = JSON.parse(rawBody.toString('utf8')) as FalWebhookBody;
        } catch {
          throw new AppError({ code: 'engines.webhook_forbidden', detail: 'Forbidden.' });
        }
        // A fal request is a generation's or a digital model's training (LoRA trainer).
        let outcome = await handleFalWebhook(deps.generations, verdict.requestId, body);
        if (outcome === 'unknown request') {
          outcome = await deps.trainings.finishProviderTraining({
            provider: 'fal',
            jobIdPrefix: encodeFalJob(verdict.requestId, ''),
          });
        }
        if (outcome === 'unknown request') {
          throw new AppError({
            code: 'engines.webhook_unknown_request',
            detail: 'This engine job is not known yet. Try again later.',
          });
        }
        return { detail: outcome };
      }),
    );
  });
}
