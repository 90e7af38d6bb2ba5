import { COPY_PHOTO_PROBLEMS, FACE_PHOTO_PROBLEMS, MODEL_PHOTO_TIPS } from '@mirra/contracts';
import { descriptorSimilarity, median } from './face-descriptors.models.js';
import type { AnalysedFace, FaceAnalysis } from './faces.types.js';

/** Reasons a photo cannot be used for the model. Stable codes (contracts): the app translates them. */
export const PHOTO_PROBLEMS = [...FACE_PHOTO_PROBLEMS, ...COPY_PHOTO_PROBLEMS] as const;
export type PhotoProblem = (typeof PHOTO_PROBLEMS)[number];

/**
 * What the photo is, not what is wrong with it: the model wants a mix (a few in low
 * light, with glasses, front and side), so these count toward that mix and never refuse a photo.
 */
export const PHOTO_TIPS = MODEL_PHOTO_TIPS;
export type PhotoTip = (typeof PHOTO_TIPS)[number];

export type FacePose = 'front' | 'side';

export interface PhotoCheckThresholds {
  /** Another face counts as another person when at least this fraction of the main face's width. */
  otherFaceMinRelativeSize: number;
  /** The face's side over the photo's shorter side. */
  minFaceFraction: number;
  /** The face's side in the photo as uploaded. */
  minFacePixels: number;
  /** normalisedSharpness of the face crop. */
  minSharpness: number;
  /** Mean luminance (0–255) of the face crop under which the photo is a low-light one. */
  lowLightLuminance: number;
  /** |yaw| in radians from which the face is turned to the side. */
  sideYaw: number;
  /** noseBridgeLineContrast from which the person wears glasses. */
  glassesContrast: number;
  /** Median descriptor similarity to the reference photos under which it is somebody else. */
  minSimilarity: number;
  /**
   * Another face at least this similar to the main one, and near it, is the same face twice: the
   * camera moved during the shot (a double image), so the photo is blurry, not a group photo.
   */
  ghostSimilarity: number;
  /** How near (centre to centre, in main-face sides) a ghost of the main face appears. */
  ghostDistance: number;
}

/**
 * Measured on real portraits (astronaut, Grace Hopper, cameraman; see src/testing/test-faces.ts) and
 * variants of them; faces.test.ts pins each decision to those photos.
 */
export const DEFAULT_PHOTO_CHECK_THRESHOLDS: PhotoCheckThresholds = {
  // Tiny faces far behind (posters, passers-by) are not "other people in the photo" for training,
  // and the detector's false positives are small ones.
  otherFaceMinRelativeSize: 0.25,
  // A selfie's face covers 30–60 % of the shorter side, a half-length portrait 20–30 %; below 10 %
  // (a full-length shot) the face has too few pixels to learn from.
  minFaceFraction: 0.1,
  minFacePixels: 96,
  // Sharp faces measure 250–2000 (JPEG re-encoded, rotated, darkened ones included), a Gaussian
  // blur of σ 2 px on a 145 px face ~17, σ 3 ~6: 60 sits between them on a log scale.
  minSharpness: 60,
  // Normally lit faces measure 85–160 even when 20 % darker; an underexposed (×0.3) one ~40.
  lowLightLuminance: 70,
  // 20°: frontal portraits measure |yaw| ≤ 0.05 rad, the cameraman's semi-profile 0.76 rad.
  sideYaw: 0.35,
  // Grace Hopper's frames measure 13–21 across variants, bare faces ≤ 2.4.
  glassesContrast: 6,
  // The same person 0.95–1.0 (0.58 blurred), different people 0.15–0.33: 0.45 keeps the margin
  // on the side of accepting, because real photos of one person vary more than our variants do.
  minSimilarity: 0.45,
  // A shaken shot's double image measures 0.78–0.86 against the main face, different people
  // 0.15–0.33; the copy sits about one face width away (a shift of 40–80 px on a 150 px face).
  ghostSimilarity: 0.6,
  ghostDistance: 1.5,
};

export interface PhotoCheckMeasurements {
  faceCount: number;
  /** The main face's side over the photo's shorter side. */
  faceFraction: number;
  /** The main face's side in original pixels. */
  facePixels: number;
  sharpness: number;
  luminance: number;
  yaw: number;
  glassesContrast: number;
  /** Median similarity to the references; null without references. */
  similarity: number | null;
}

export interface PhotoCheck {
  /** False when the photo cannot count toward the model (any problem). */
  ok: boolean;
  problems: PhotoProblem[];
  tips: PhotoTip[];
  /** Null when there is no face to have a pose. */
  pose: FacePose | null;
  /** The numbers behind the verdict, for logs and for re-judging stored photos. */
  measurements: PhotoCheckMeasurements | null;
}

export interface PhotoCheckInput {
  analysis: FaceAnalysis;
  /**
   * Descriptors of the model's other good photos (earlier uploads and the rest of this upload).
   * Empty for the first photo: there is nobody to differ from yet.
   */
  references: readonly (readonly number[])[];
}

/**
 * Every check of one photo for the personal model. All checks run on the largest face even when
 * there are others, so the user learns everything wrong with the photo at once; only a photo
 * without a face has nothing else to say.
 */
export function checkPhoto(
  input: PhotoCheckInput,
  thresholds: PhotoCheckThresholds = DEFAULT_PHOTO_CHECK_THRESHOLDS,
): PhotoCheck {
  const { analysis } = input;
  const [main] = analysis.faces;
  if (!main) return { ok: false, problems: ['face.none'], tips: [], pose: null, measurements: null };

  const measurements = measure(input, main, analysis.faces);
  const problems: PhotoProblem[] = [];
  const tips: PhotoTip[] = [];
  const mainSide = faceSide(main);
  const others = analysis.faces
    .slice(1)
    .filter((face) => faceSide(face) >= mainSide * thresholds.otherFaceMinRelativeSize);
  // The same face twice is one person in a shaken photo: blur, not somebody else in the frame.
  const ghosts = others.filter((face) => isGhostOf(main, face, thresholds));
  if (others.length > ghosts.length) problems.push('face.multiple');
  if (
    measurements.faceFraction < thresholds.minFaceFraction ||
    measurements.facePixels < thresholds.minFacePixels
  ) {
    problems.push('face.too_small');
  }
  const isBlurry = measurements.sharpness < thresholds.minSharpness || ghosts.length > 0;
  if (isBlurry) problems.push('photo.blurry');
  // A blurred face's descriptor drifts from the person's (0.3 at a blur of 5 px), so it cannot
  // say whether it is somebody else: the blur is the reason given, and the retake is judged.
  if (!isBlurry && measurements.similarity !== null && measurements.similarity < thresholds.minSimilarity) {
    problems.push('face.different_person');
  }

  const pose = classifyPose(main.yaw, thresholds);
  tips.push(pose === 'side' ? 'pose.side' : 'pose.front');
  if (measurements.luminance < thresholds.lowLightLuminance) tips.push('photo.low_light');
  if (measurements.glassesContrast >= thresholds.glassesContrast) tips.push('face.glasses');

  return { ok: problems.length === 0, problems, tips, pose, measurements };
}

function isGhostOf(main: AnalysedFace, other: AnalysedFace, thresholds: PhotoCheckThresholds): boolean {
  const centre = (face: AnalysedFace) => ({
    x: face.box.x + face.box.width / 2,
    y: face.box.y + face.box.height / 2,
  });
  const [a, b] = [centre(main), centre(other)];
  const distance = Math.hypot(a.x - b.x, a.y - b.y);
  return (
    distance <= faceSide(main) * thresholds.ghostDistance &&
    descriptorSimilarity(main.descriptor, other.descriptor) >= thresholds.ghostSimilarity
  );
}

export function classifyPose(
  yaw: number,
  thresholds: Pick<PhotoCheckThresholds, 'sideYaw'> = DEFAULT_PHOTO_CHECK_THRESHOLDS,
): FacePose {
  return Math.abs(yaw) >= thresholds.sideYaw ? 'side' : 'front';
}

function measure(
  input: PhotoCheckInput,
  main: AnalysedFace,
  faces: readonly AnalysedFace[],
): PhotoCheckMeasurements {
  const { image } = input.analysis;
  const side = faceSide(main);
  const scale = image.width > 0 ? image.originalWidth / image.width : 1;
  const references = input.references.filter((reference) => reference.length > 0);
  return {
    faceCount: faces.length,
    faceFraction: side / Math.max(1, Math.min(image.width, image.height)),
    facePixels: side * scale,
    sharpness: main.crop.sharpness,
    luminance: main.crop.meanLuminance,
    yaw: main.yaw,
    glassesContrast: main.crop.noseBridgeLineContrast,
    similarity:
      references.length === 0
        ? null
        : median(references.map((reference) => descriptorSimilarity(main.descriptor, reference))),
  };
}

function faceSide(face: AnalysedFace): number {
  return Math.max(face.box.width, face.box.height);
}
