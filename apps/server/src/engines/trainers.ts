import type { Config } from '../shared/config.js';
import type { ModelTrainer } from './trainer.types.js';
import { createFalTrainer } from './fal/fal.engine.js';
import { createReplicateTrainer } from './replicate/replicate.trainer.js';
import { routes } from '@mirra/contracts';

/**
 * The providers that train digital models' LoRAs, in ENGINE_TRAINING's order. `local` is not one
 * of them: it is the face profile every training makes anyway. A provider appears only when its
 * key is configured (Replicate also needs REPLICATE_TRAINING_OWNER, the account that owns the
 * trained models).
 */
export function createModelTrainers(config: Config): ModelTrainer[] {
  return config.trainingEngines.flatMap((name): ModelTrainer[] => {
    if (name === 'fal' && config.fal) {
      return [
        createFalTrainer(
          config.fal,
          config.providerPrices,
          `${config.publicUrl}${routes.engines.falWebhook.path}`,
        ),
      ];
    }
    if (name === 'replicate' && config.replicate?.training) {
      return [
        createReplicateTrainer(
          {
            token: config.replicate.token,
            baseUrl: config.replicate.baseUrl,
            ...config.replicate.training,
          },
          config.providerPrices,
          `${config.publicUrl}${routes.engines.replicateWebhook.path}`,
        ),
      ];
    }
    return [];
  });
}
