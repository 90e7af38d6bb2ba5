import type { TModel } from '@mirra/contracts';
import type { ModelsDeps } from './models.deps.js';
import type { DbOrTx } from '../../shared/db/client.js';
import { hasCreditEntry } from '../credits/index.js';
import { firstModelOfferKey, trainingPriceFor, typicalTrainingSeconds } from './models.models.js';
import { modelsRepository, type ModelSummaryRow } from './models.repository.js';
import { toModelJson } from './models.serializers.js';
import { liveCheckState } from './live-check.usecases.js';
import { consentRepository } from './consent.repository.js';

/**
 * What training a model of this user costs now: the price the screen shows and the charge
 * `startTraining` takes are this one function (the first model is free, see trainingPriceFor).
 */
export async function trainingPriceNow(
  deps: Pick<ModelsDeps, 'config'>,
  db: DbOrTx,
  userId: number,
  modelId: number,
): Promise<number> {
  if (!deps.config.models.isFirstModelFree) return deps.config.models.trainingPrice;
  const [isOfferSpent, isFreeTrainingRunning] = await Promise.all([
    hasCreditEntry(db, firstModelOfferKey(userId)),
    modelsRepository.hasFreeTrainingRunning(db, userId, modelId),
  ]);
  return trainingPriceFor(deps.config.models.trainingPrice, { isOfferSpent, isFreeTrainingRunning });
}

/** A model as the API shows it, with signed URLs of its photos and cover. */

export const context = (deps: ModelsDeps, trainingPrice: number) => ({
  mediaUrls: deps.mediaUrls,
  now: deps.now(),
  minPhotos: deps.config.models.minPhotos,
  trainingPrice,
  trainingSeconds: typicalTrainingSeconds(deps.modelTrainers),
});

export async function modelJson(deps: ModelsDeps, db: DbOrTx, row: ModelSummaryRow): Promise<TModel> {
  const [photos, price, liveCheck, consent] = await Promise.all([
    modelsRepository.listPhotos(db, row.id),
    trainingPriceNow(deps, db, row.userId, row.id),
    liveCheckState(db, row.id),
    consentState(db, row),
  ]);
  return toModelJson(row, photos, { ...context(deps, price), liveCheck, consent });
}

/** Where a model's consent stands, as the owner's model screen shows it (null: own model). */
export async function consentState(
  db: DbOrTx,
  model: { id: number; subject: string },
): Promise<'pending' | 'confirmed' | null> {
  if (model.subject !== 'other') return null;
  const consent = await consentRepository.findByModel(db, model.id);
  return consent?.status === 'confirmed' ? 'confirmed' : 'pending';
}
