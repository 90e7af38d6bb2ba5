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

/**
 * What Kontext is told for an instant face photo (a model still in training, fed its best
 * reference photo): the described scene, with the person of the photo kept as they are (Kontext
 * edits its image; the words ask for a new picture). fal and Replicate both run Kontext for it.
 */
export function instantLikenessPrompt(prompt: string): string {
  return (
    `A new photo of the same person as in this image: ${prompt.trim()}. ` +
    'Keep their face, identity, age and skin tone exactly; photorealistic.'
  );
}
