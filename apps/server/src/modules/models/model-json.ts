import type { TModel } from '@mirra/contracts';
import type { ModelsDeps } from './models.deps.js';
import type { DbOrTx } from '../../shared/db/client.js';
import { modelsRepository, type ModelSummaryRow } from './models.repository.js';
import { toModelJson } from './models.serializers.js';

/** A model as the API shows it, with signed URLs of its photos and cover. */

export const context = (deps: ModelsDeps) => ({
  mediaUrls: deps.mediaUrls,
  now: deps.now(),
  minPhotos: deps.config.models.minPhotos,
  trainingPrice: deps.config.models.trainingPrice,
});

export async function modelJson(deps: ModelsDeps, db: DbOrTx, row: ModelSummaryRow): Promise<TModel> {
  return toModelJson(row, await modelsRepository.listPhotos(db, row.id), context(deps));
}
