import { buildFaceProfile, type FaceProfile } from '@mirra/imaging';
import type { ModelsDeps } from './models.deps.js';
import { isUuid } from '../uploads/index.js';
import { isTraining } from './models.models.js';
import { modelsRepository, type ModelRow } from './models.repository.js';
import { findTrainedModel } from './models.usecases.js';

/**
 * A model face photos and packs can be made from: a trained one (`trained: true`, its profile and
 * provider LoRAs), or one whose training is paid and under way (IN_QUEUE or IN_PROGRESS) with at
 * least MODEL_MIN_PHOTOS checked photos of one usable face: its profile is built from those
 * photos' stored analyses as training builds it, so identity-preserving engines that need no
 * training (and the local engine, which works from the photos) serve it until the LoRA is ready.
 * A model still collecting photos, or whose training failed, serves nothing.
 */
export async function findUsableModel(
  deps: Pick<ModelsDeps, 'db' | 'config'>,
  userId: number,
  uuid: string,
): Promise<{ model: ModelRow; profile: FaceProfile; trained: boolean } | null> {
  const trained = await findTrainedModel(deps, userId, uuid);
  if (trained) return { ...trained, trained: true };
  if (!isUuid(uuid)) return null;
  const model = await modelsRepository.findOwnedWithProfile(deps.db, userId, uuid);
  if (!model || !isTraining(model.status)) return null;
  const photos = (await modelsRepository.listPhotosWithAnalysis(deps.db, model.id)).filter(
    (photo) => photo.ok,
  );
  const profile = buildFaceProfile(
    photos.map((photo) => ({ photoId: photo.uuid, analysis: photo.analysis })),
  );
  if (profile.photoCount < deps.config.models.minPhotos) return null;
  return { model, profile, trained: false };
}
