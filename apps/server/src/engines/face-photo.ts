import sharp from 'sharp';
import { EngineError, type EngineFaceModel } from './engine.types.js';

/**
 * The photo of the user's face a provider's face swap takes: the best front-facing reference of
 * their digital model (the first of any pose when none faces the camera).
 */
export async function userFacePhoto(
  faceModel: EngineFaceModel,
): Promise<{ data: Buffer; contentType: string }> {
  const photoId = faceModel.profile.bestByPose.front[0] ?? faceModel.profile.references[0]?.photoId;
  if (!photoId) {
    throw EngineError.badInput(
      'no_usable_references',
      'Your digital model has no photo to take the face from.',
    );
  }
  const data = await faceModel.loadReferencePhoto(photoId);
  const meta = await sharp(data).metadata();
  return { data, contentType: meta.format === 'png' ? 'image/png' : 'image/jpeg' };
}
