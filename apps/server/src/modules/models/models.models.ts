import { GenerationStatus, type TGenerationStatus } from '@mirra/contracts';
import {
  descriptorSimilarity,
  type AnalysedFace,
  type FaceAnalysis,
  copyDistance,
  MAX_COPY_DISTANCE,
  checkPhoto,
  DEFAULT_PHOTO_CHECK_THRESHOLDS,
  type PhotoCheck,
  type PhotoCheckThresholds,
} from '@mirra/imaging';

export const MODEL_EVENTS_CHANNEL = 'mirra_model_events';

const { NEW, IN_QUEUE, IN_PROGRESS, COMPLETED, ERROR, FAILED } = GenerationStatus;

/**
 * Every allowed status change of a model. NEW collects photos; training is IN_QUEUE → IN_PROGRESS
 * → COMPLETED. ERROR (the photos could not make a model) and FAILED (our fault, or a timeout) are
 * refunded and may be trained again (a new, separately charged attempt). COMPLETED is final: the
 * model is never retrained.
 */
export const modelTransitions: Record<TGenerationStatus, readonly TGenerationStatus[]> = {
  [NEW]: [IN_QUEUE],
  [IN_QUEUE]: [IN_PROGRESS, ERROR, FAILED],
  [IN_PROGRESS]: [IN_QUEUE, COMPLETED, ERROR, FAILED],
  [COMPLETED]: [],
  [ERROR]: [IN_QUEUE],
  [FAILED]: [IN_QUEUE],
};

export function modelStatusesAllowedBefore(to: TGenerationStatus): TGenerationStatus[] {
  return (Object.keys(modelTransitions).map(Number) as TGenerationStatus[]).filter((from) =>
    modelTransitions[from].includes(to),
  );
}

/**
 * The first digital model of an account trains free: it is what the app is about, and the
 * welcome credits then stay for the pictures made with it. The offer is spent when a free
 * training completes (a ledger entry under this key, once per account, kept when the model is
 * deleted); a failed one leaves it. Only one free training runs at a time.
 */
export const firstModelOfferKey = (userId: number) => `first-model:${userId}`;

export function trainingPriceFor(
  configuredPrice: number,
  state: { isOfferSpent: boolean; isFreeTrainingRunning: boolean },
): number {
  return state.isOfferSpent || state.isFreeTrainingRunning ? configuredPrice : 0;
}

/** What a local face profile usually takes to build, in seconds (no provider trains). */
export const LOCAL_TRAINING_TYPICAL_SECONDS = 20;

/** How long training usually takes with these providers: the slowest of them, else the local profile. */
export function typicalTrainingSeconds(trainers: readonly { typicalSeconds: number }[]): number {
  return Math.max(LOCAL_TRAINING_TYPICAL_SECONDS, ...trainers.map((trainer) => trainer.typicalSeconds));
}

export const isTraining = (status: number) => status === IN_QUEUE || status === IN_PROGRESS;

// --- Storage -----------------------------------------------------------------------------------

/** Every file of a model lives under this per-user prefix; deleting the model deletes the prefix. */
export const modelStoragePrefix = (userId: number, modelUuid: string) => `models/${userId}/${modelUuid}`;

export function modelPhotoKeys(
  userId: number,
  modelUuid: string,
  photoUuid: string,
  extension: 'jpg' | 'png',
) {
  const prefix = modelStoragePrefix(userId, modelUuid);
  return {
    original: `${prefix}/photos/${photoUuid}.${extension}`,
    thumbnail: `${prefix}/photos/${photoUuid}.thumb.webp`,
    aligned: `${prefix}/aligned/${photoUuid}.png`,
  };
}

/** Side of the aligned face crops training makes (what a provider would train a LoRA on). */
export const ALIGNED_CROP_SIZE = 256;
/** Longest side of a photo's preview. */
export const THUMBNAIL_SIDE = 320;
/** Previews are for the owner's screen only: their links stop working after an hour. */
export const THUMBNAIL_URL_SECONDS = 3600;

// --- Stored analysis ---------------------------------------------------------------------------

const round = (value: number, digits: number) => {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
};

/**
 * What is kept of a photo's face analysis: everything of the main face (the profile and face
 * swap need its mesh and descriptor), and of other faces only what the checks look at (their
 * boxes and scores). Numbers are rounded far below what they are measured to (a tenth of a
 * pixel, 5 decimals of a descriptor), halving the JSON.
 */
export function compactAnalysis(analysis: FaceAnalysis): FaceAnalysis {
  const [main, ...others] = analysis.faces;
  const face = (f: AnalysedFace, isMain: boolean): AnalysedFace => ({
    ...f,
    mesh: isMain ? f.mesh.map(([x, y, z]) => [round(x, 1), round(y, 1), round(z, 1)]) : [],
    descriptor: isMain ? f.descriptor.map((v) => round(v, 5)) : [],
    landmarks: f.landmarks,
  });
  return {
    image: analysis.image,
    faces: main ? [face(main, true), ...others.map((f) => face(f, false))] : [],
  };
}

// --- Judging photos ----------------------------------------------------------------------------

export interface JudgedPhoto {
  id: number;
  analysis: FaceAnalysis;
  /** Perceptual fingerprint; null for photos stored before fingerprints (never called copies). */
  fingerprint?: string | null;
}

/**
 * Whether `later` is a copy of `earlier`: the same picture re-saved, resized, recompressed or
 * mirrored.
 * The fingerprints must be close; the faces are the second signal: when both photos show a face
 * and the two faces are clearly different people, the photos are not copies, however alike the
 * pictures are overall.
 */
export function isCopyOf(
  later: JudgedPhoto,
  earlier: JudgedPhoto,
  thresholds: PhotoCheckThresholds = DEFAULT_PHOTO_CHECK_THRESHOLDS,
): boolean {
  if (!later.fingerprint || !earlier.fingerprint) return false;
  if (copyDistance(later.fingerprint, earlier.fingerprint) > MAX_COPY_DISTANCE) return false;
  const a = later.analysis.faces[0]?.descriptor ?? [];
  const b = earlier.analysis.faces[0]?.descriptor ?? [];
  return a.length === 0 || b.length === 0 || descriptorSimilarity(a, b) >= thresholds.minSimilarity;
}

/**
 * The photos (by id) that copy an earlier one. Photos come oldest first: the first of a picture
 * is kept and every later copy of it is refused, so deleting the first lets the next count.
 * Callers pass only photos that pass the other checks.
 */
export function findCopies(
  photos: readonly JudgedPhoto[],
  thresholds: PhotoCheckThresholds = DEFAULT_PHOTO_CHECK_THRESHOLDS,
): Set<number> {
  const copies = new Set<number>();
  const kept: JudgedPhoto[] = [];
  for (const photo of photos) {
    if (kept.some((earlier) => isCopyOf(photo, earlier, thresholds))) copies.add(photo.id);
    else kept.push(photo);
  }
  return copies;
}

/** A verdict with the photo refused as a copy of one the model already has. */
export function asCopy(verdict: PhotoCheck): PhotoCheck {
  return { ...verdict, ok: false, problems: [...verdict.problems, 'photo.duplicate'] };
}

/**
 * Verdicts for the photos of a model. Every check of `checkPhoto` runs on each; "the same person"
 * is judged against:
 * - a trained model's identity (its profile descriptor) when given: the model is the person;
 * - otherwise the largest group of one person among the photos that pass every other check:
 *   the photo most others resemble anchors it, and a photo is compared with the anchor's group
 *   (without itself). So one stray photo among fourteen of the user is the one flagged, whatever
 *   order they came in, and earlier verdicts may change as photos arrive (the screen re-reads).
 */
export function judgeModelPhotos(
  photos: readonly JudgedPhoto[],
  identity: readonly number[] | null,
  thresholds: PhotoCheckThresholds = DEFAULT_PHOTO_CHECK_THRESHOLDS,
): Map<number, PhotoCheck> {
  const verdicts = new Map<number, PhotoCheck>();
  if (identity && identity.length > 0) {
    const checked = new Map(
      photos.map((photo) => [
        photo.id,
        checkPhoto({ analysis: photo.analysis, references: [identity] }, thresholds),
      ]),
    );
    const copies = findCopies(
      photos.filter((photo) => checked.get(photo.id)!.ok),
      thresholds,
    );
    for (const [id, verdict] of checked) verdicts.set(id, copies.has(id) ? asCopy(verdict) : verdict);
    return verdicts;
  }
  const descriptorOf = (photo: JudgedPhoto) => photo.analysis.faces[0]?.descriptor ?? [];
  const usable = photos.filter(
    (photo) =>
      descriptorOf(photo).length > 0 &&
      checkPhoto({ analysis: photo.analysis, references: [] }, thresholds).ok,
  );
  // Copies are looked for among photos that pass every other check (a blurred first shot does not
  // block a sharp copy of it); a copy adds nothing to who the person is, so it is not a candidate.
  const copies = findCopies(usable, thresholds);
  const candidates = usable.filter((photo) => !copies.has(photo.id));
  const isSame = (a: JudgedPhoto, b: JudgedPhoto) =>
    descriptorSimilarity(descriptorOf(a), descriptorOf(b)) >= thresholds.minSimilarity;
  let anchor: JudgedPhoto | null = null;
  let bestSupport = -1;
  for (const candidate of candidates) {
    let support = 0;
    for (const other of candidates) if (other !== candidate && isSame(candidate, other)) support++;
    // Ties go to the earlier photo (photos come oldest first): verdicts do not flip back and forth.
    if (support > bestSupport) {
      anchor = candidate;
      bestSupport = support;
    }
  }
  const group = anchor ? candidates.filter((c) => c === anchor || isSame(anchor, c)) : [];
  for (const photo of photos) {
    const references = group.filter((member) => member.id !== photo.id).map(descriptorOf);
    const verdict = checkPhoto({ analysis: photo.analysis, references }, thresholds);
    verdicts.set(photo.id, copies.has(photo.id) ? asCopy(verdict) : verdict);
  }
  return verdicts;
}

/** Whether two verdicts differ in anything stored (so unchanged rows are not rewritten). */
interface StoredVerdict {
  ok: boolean;
  problems: readonly string[];
  tips: readonly string[];
  pose: string | null;
}

export function isSameVerdict(a: StoredVerdict, b: StoredVerdict): boolean {
  return (
    a.ok === b.ok &&
    a.pose === b.pose &&
    a.problems.join() === b.problems.join() &&
    a.tips.join() === b.tips.join()
  );
}

/** The field error when training is asked for with too few good photos. */
export function notEnoughPhotosMessage(referenceCount: number, minPhotos: number): string {
  return `Upload at least ${minPhotos} good photos of yourself to train the model; ${referenceCount} so far.`;
}
