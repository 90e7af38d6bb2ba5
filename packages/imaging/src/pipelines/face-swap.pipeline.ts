import {
  type FaceAnalyzer,
  type Point2,
  decodeRgb,
  type FaceReference,
  pickReferenceForYaw,
  swapFace,
  type RgbImage,
  type AnalysedFace,
} from '../faces/index.js';
import {
  engineNote,
  UnusableInputError,
  type EngineFaceModel,
  type EngineImage,
  type EngineNote,
} from '../pipeline.types.js';
import type { Checkpoint } from '../raster/raster.js';

/** Longest side of a face swap result (and of the target it is made from). */
export const FACE_SWAP_MAX_SIDE = 2048;
/** The source photo is read at up to this size: enough detail for a large target face. */
const SOURCE_MAX_SIDE = 2048;

export interface FaceSwapOutcome {
  image: RgbImage;
  notes: EngineNote[];
}

/**
 * Puts the user's face on the target photo: the target's largest face is found with its mesh, the
 * model's reference turned most like it is chosen, and the swap is done by swapFace (triangulated
 * warp, local colour matching skin to skin, Poisson blend). No face in the target is bad input
 * (ERROR + refund).
 */
export async function faceSwapOnPhoto(
  target: EngineImage,
  faceModel: EngineFaceModel,
  analyzer: FaceAnalyzer,
  checkpoint: Checkpoint,
): Promise<FaceSwapOutcome> {
  let image: RgbImage;
  try {
    image = await decodeRgb(target.data, { maxSide: FACE_SWAP_MAX_SIDE });
  } catch {
    throw new UnusableInputError('unreadable_photo', 'The photo could not be read as an image.');
  }
  const analysis = await analyzer.analyze(target.data);
  await checkpoint();
  const [face, ...others] = analysis.faces;
  if (!face || face.mesh.length < 468) {
    throw new UnusableInputError(
      'no_face',
      'No face was found in this photo. Choose one where a face is clearly visible, looking roughly at the camera.',
    );
  }
  const scale = image.width / analysis.image.width;
  const placed = await placeReference(faceModel, face.yaw, image, toPoints(face, scale), checkpoint, true);
  const side = placed.reference.pose === 'side';
  const notes = [
    engineNote(
      side ? 'face_swap.method_side' : 'face_swap.method_front',
      'Face swap by the offline local engine, not a generative model: your face from one of your model’s ' +
        `photos (${side ? 'a side' : 'a front'} view, chosen to match the pose) ` +
        'warped over a triangulated face mesh, colour-matched to the photo’s skin and blended in the gradient domain.',
    ),
  ];
  if (others.length > 0) {
    const count = others.length + 1;
    notes.push(
      engineNote('face_swap.many_faces', `${count} faces were found; the largest one was swapped.`, {
        count,
      }),
    );
  }
  if (analysis.image.originalWidth > image.width) {
    const { width, height } = image;
    notes.push(
      engineNote(
        'face_swap.worked_at',
        `Worked at ${width}×${height} (the face swap limit is ${FACE_SWAP_MAX_SIDE} px).`,
        { width, height, limit: FACE_SWAP_MAX_SIDE },
      ),
    );
  }
  return { image: placed.image, notes };
}

/**
 * Warps the model's reference face best matching `yaw` onto `targetMesh` of `target` (face swap on
 * a photo, or a face photo's drawn head). The further the reference's pose is from the target's,
 * the more the face takes the target's shape instead of its own (a turned face's 2D shape misleads).
 */
export async function placeReference(
  faceModel: EngineFaceModel,
  yaw: number,
  target: RgbImage,
  targetMesh: Point2[],
  checkpoint: Checkpoint,
  matchColour: boolean,
): Promise<{ image: RgbImage; reference: FaceReference }> {
  const reference = pickReferenceForYaw(faceModel.profile, yaw);
  if (!reference) {
    throw new UnusableInputError(
      'no_usable_references',
      'Your digital model has no usable photos left. Add photos of yourself to it.',
    );
  }
  const sourcePhoto = await faceModel.loadReferencePhoto(reference.photoId);
  const source = await decodeRgb(sourcePhoto, { maxSide: SOURCE_MAX_SIDE });
  await checkpoint();
  const sourceScale = source.width / reference.imageWidth;
  const sourceMesh = reference.mesh.map(([x, y]) => [x * sourceScale, y * sourceScale] as const);
  const poseGap = Math.abs(reference.yaw - yaw);
  const swapped = swapFace({
    target,
    targetMesh,
    source,
    sourceMesh,
    matchColour,
    shapeFromSource: 0.8 * Math.max(0, 1 - poseGap / 0.6),
  });
  await checkpoint();
  return { image: swapped.image, reference };
}

function toPoints(face: AnalysedFace, scale: number): Point2[] {
  return face.mesh.map(([x, y]) => [x * scale, y * scale] as const);
}
