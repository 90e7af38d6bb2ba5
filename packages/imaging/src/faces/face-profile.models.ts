import { averageDescriptor, descriptorSimilarity, median } from './face-descriptors.models.js';
import type { AnalysedFace, FaceAnalysis, FaceLandmarks, Point3 } from './faces.types.js';
import {
  classifyPose,
  DEFAULT_PHOTO_CHECK_THRESHOLDS,
  type FacePose,
  type PhotoCheckThresholds,
} from './photo-checks.models.js';

export { descriptorSimilarity } from './face-descriptors.models.js';

/** A model's photo as the profile sees it: the caller's id and the photo's analysis. */
export interface ProfilePhoto {
  photoId: string;
  analysis: FaceAnalysis;
}

/** One usable face of the model, enough to warp it onto a target without re-analysing. */
export interface FaceReference {
  photoId: string;
  pose: FacePose;
  /** Radians, as in AnalysedFace. */
  yaw: number;
  pitch: number;
  roll: number;
  /** 0–1 ranking of how good a source this face is (confidence, sharpness, size, light). */
  quality: number;
  /** Similarity of this face to the profile's descriptor. */
  similarity: number;
  /** The analysed image's size, which box and mesh refer to (scale to the original from here). */
  imageWidth: number;
  imageHeight: number;
  box: AnalysedFace['box'];
  mesh: Point3[];
  landmarks: FaceLandmarks;
}

export interface LandmarkStatistics {
  /** How many front-pose faces the shape was measured on (side faces would skew it). */
  sampleCount: number;
  /**
   * The mean mesh in a canonical frame: origin midway between the eye centres, x along the line
   * from the person's right eye to their left, y down the face, one unit = the distance between
   * the eye centres. Independent of where the face was in each photo and how large.
   */
  meanShape: [number, number][];
  /** Per point, the standard deviation around meanShape in the same units (expression, pose). */
  spread: number[];
  /** Face width (cheek to cheek) over the eye distance: the face's proportions. */
  faceWidthRatio: number;
  /** Eye line to chin over the eye distance. */
  faceHeightRatio: number;
}

export interface FaceProfile {
  version: 1;
  photoCount: number;
  /** The person's identity: compare a face to it with descriptorSimilarity. */
  descriptor: number[];
  /** Similarities of the photos to `descriptor`: a low minimum means a doubtful photo slipped in. */
  consistency: { min: number; median: number };
  /** Every usable face, best first. */
  references: FaceReference[];
  /** Photo ids of the best faces per pose, best first (at most BEST_PER_POSE each). */
  bestByPose: Record<FacePose, string[]>;
  landmarks: LandmarkStatistics | null;
}

export const BEST_PER_POSE = 3;

/**
 * The local engine's "training": the face profile of a person from their checked photos. Photos
 * without exactly one usable face are left out (the checks already refused them; a profile must
 * not learn somebody else's face from a photo re-judged under new thresholds).
 */
export function buildFaceProfile(
  photos: readonly ProfilePhoto[],
  thresholds: PhotoCheckThresholds = DEFAULT_PHOTO_CHECK_THRESHOLDS,
  options: { identity?: readonly number[] } = {},
): FaceProfile {
  const usable = photos.flatMap((photo) => {
    const [face, ...others] = photo.analysis.faces;
    if (!face || others.length > 0 || face.descriptor.length === 0) return [];
    return [{ photo, face }];
  });
  // A trained model keeps its identity when photos are added or removed (see models.models.ts):
  // the references are re-ranked around it instead of averaging a new one.
  const descriptor = options.identity?.length
    ? [...options.identity]
    : averageDescriptor(usable.map(({ face }) => face.descriptor));
  const references = usable
    .map(({ photo, face }) => toReference(photo, face, descriptor, thresholds))
    .sort((a, b) => b.quality - a.quality);
  const similarities = references.map((reference) => reference.similarity);
  const bestByPose: Record<FacePose, string[]> = { front: [], side: [] };
  for (const reference of references) {
    const best = bestByPose[reference.pose];
    if (best.length < BEST_PER_POSE) best.push(reference.photoId);
  }
  const fronts = usable.filter(({ face }) => classifyPose(face.yaw, thresholds) === 'front');
  return {
    version: 1,
    photoCount: references.length,
    descriptor,
    consistency: {
      min: similarities.length === 0 ? 0 : Math.min(...similarities),
      median: median(similarities),
    },
    references,
    bestByPose,
    landmarks: landmarkStatistics(fronts.map(({ face }) => face.mesh)),
  };
}

/**
 * The reference to warp onto a target face turned by `yaw`: the closest yaw, and among faces
 * whose yaw is about as close (within 0.1 rad, ~6°), the best quality. A wrongly turned source
 * shows more than a slightly softer one.
 */
export function pickReferenceForYaw(profile: FaceProfile, yaw: number): FaceReference | null {
  let closest = Number.POSITIVE_INFINITY;
  for (const reference of profile.references) closest = Math.min(closest, Math.abs(reference.yaw - yaw));
  const candidates = profile.references.filter((reference) => Math.abs(reference.yaw - yaw) <= closest + 0.1);
  // References are sorted best first.
  return candidates[0] ?? null;
}

/** Quality weights: sharpness matters most for a source face, then pixels, then light. */
function faceQuality(face: AnalysedFace, analysis: FaceAnalysis, thresholds: PhotoCheckThresholds): number {
  const clamp = (value: number) => Math.min(1, Math.max(0, value));
  // 1 at ten times the blur threshold, 0 at the threshold.
  const sharpness = clamp(Math.log10(Math.max(face.crop.sharpness, 1e-6) / thresholds.minSharpness));
  const scale = analysis.image.width > 0 ? analysis.image.originalWidth / analysis.image.width : 1;
  // 512 original pixels is what a generated face is rendered at; more adds nothing.
  const size = clamp((Math.max(face.box.width, face.box.height) * scale) / 512);
  const light = clamp(face.crop.meanLuminance / 110);
  return clamp(face.score) * (0.5 * sharpness + 0.3 * size + 0.2 * light);
}

function toReference(
  photo: ProfilePhoto,
  face: AnalysedFace,
  descriptor: number[],
  thresholds: PhotoCheckThresholds,
): FaceReference {
  return {
    photoId: photo.photoId,
    pose: classifyPose(face.yaw, thresholds),
    yaw: face.yaw,
    pitch: face.pitch,
    roll: face.roll,
    quality: faceQuality(face, photo.analysis, thresholds),
    similarity: descriptorSimilarity(face.descriptor, descriptor),
    imageWidth: photo.analysis.image.width,
    imageHeight: photo.analysis.image.height,
    box: face.box,
    mesh: face.mesh,
    landmarks: face.landmarks,
  };
}

// MediaPipe face mesh indices of the eye corners and face outline.
const RIGHT_EYE = [33, 133] as const;
const LEFT_EYE = [362, 263] as const;
const RIGHT_CHEEK = 234;
const LEFT_CHEEK = 454;
const CHIN = 152;

/** Meshes of one person's front faces → their mean shape and its spread, in the canonical frame. */
export function landmarkStatistics(meshes: readonly Point3[][]): LandmarkStatistics | null {
  if (meshes.length === 0) return null;
  // 478 points with the iris, 468 without: the common part.
  const pointCount = Math.min(...meshes.map((mesh) => mesh.length));
  if (pointCount < 468) return null;
  const shapes = meshes.map((mesh) => canonicalShape(mesh.slice(0, pointCount)));
  const meanShape: [number, number][] = [];
  const spread: number[] = [];
  for (let i = 0; i < pointCount; i += 1) {
    let x = 0;
    let y = 0;
    for (const shape of shapes) {
      x += (shape[i]?.[0] ?? 0) / shapes.length;
      y += (shape[i]?.[1] ?? 0) / shapes.length;
    }
    let variance = 0;
    for (const shape of shapes) {
      variance += (((shape[i]?.[0] ?? 0) - x) ** 2 + ((shape[i]?.[1] ?? 0) - y) ** 2) / shapes.length;
    }
    meanShape.push([x, y]);
    spread.push(Math.sqrt(variance));
  }
  const at = (index: number): [number, number] => meanShape[index] ?? [0, 0];
  return {
    sampleCount: shapes.length,
    meanShape,
    spread,
    faceWidthRatio: Math.hypot(
      at(LEFT_CHEEK)[0] - at(RIGHT_CHEEK)[0],
      at(LEFT_CHEEK)[1] - at(RIGHT_CHEEK)[1],
    ),
    faceHeightRatio: at(CHIN)[1],
  };
}

/** A mesh in the canonical frame of LandmarkStatistics.meanShape. */
export function canonicalShape(mesh: readonly Point3[]): [number, number][] {
  const { centre, axisX, axisY, eyeDistance } = eyeFrame(mesh);
  if (eyeDistance === 0) return mesh.map(() => [0, 0]);
  return mesh.map(([x, y]) => {
    const dx = x - centre[0];
    const dy = y - centre[1];
    return [(dx * axisX[0] + dy * axisX[1]) / eyeDistance, (dx * axisY[0] + dy * axisY[1]) / eyeDistance];
  });
}

/**
 * The 2×3 affine matrix [a, b, c, d, e, f] (x' = a·x + b·y + e, y' = c·x + d·y + f) that maps
 * a face in its photo to an upright `size`² crop with the eye centres level at 40 % of the height
 * and 35 % / 65 % of the width: the aligned crops the model is built from, every face the same.
 * Takes the analysed image's coordinates (mesh or landmarks of an AnalysedFace).
 */
export function alignmentTransform(
  mesh: readonly Point3[],
  size: number,
): [number, number, number, number, number, number] {
  const { centre, axisX, eyeDistance } = eyeFrame(mesh);
  const scale = eyeDistance === 0 ? 1 : (0.3 * size) / eyeDistance;
  // Rotate so the eye line is horizontal, scale it to 30 % of the crop, then move its midpoint.
  const a = axisX[0] * scale;
  const b = axisX[1] * scale;
  const c = -axisX[1] * scale;
  const d = axisX[0] * scale;
  const e = 0.5 * size - (a * centre[0] + b * centre[1]);
  const f = 0.4 * size - (c * centre[0] + d * centre[1]);
  return [a, b, c, d, e, f];
}

function eyeFrame(mesh: readonly Point3[]) {
  const mid = (indices: readonly number[]): [number, number] => {
    let x = 0;
    let y = 0;
    for (const index of indices) {
      x += (mesh[index]?.[0] ?? 0) / indices.length;
      y += (mesh[index]?.[1] ?? 0) / indices.length;
    }
    return [x, y];
  };
  const right = mid(RIGHT_EYE);
  const left = mid(LEFT_EYE);
  const eyeDistance = Math.hypot(left[0] - right[0], left[1] - right[1]);
  const axisX: [number, number] =
    eyeDistance === 0 ? [1, 0] : [(left[0] - right[0]) / eyeDistance, (left[1] - right[1]) / eyeDistance];
  const axisY: [number, number] = [-axisX[1], axisX[0]];
  const centre: [number, number] = [(left[0] + right[0]) / 2, (left[1] + right[1]) / 2];
  return { centre, axisX, axisY, eyeDistance };
}
