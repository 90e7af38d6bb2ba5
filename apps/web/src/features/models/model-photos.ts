import type { TFunction } from 'i18next';
import type { TModelPhotoProblem, TModelPhotoTip } from '../../lib/api-types';

/** What the server said of one photo (a stored photo or a fresh verdict): the parts shown. */
export interface PhotoJudgement {
  ok: boolean;
  problems: readonly TModelPhotoProblem[];
  tips: readonly TModelPhotoTip[];
}

/**
 * A verdict in the user's language: why the photo does not count (each problem), and what it is
 * (low light, glasses, front or side), which never refuses a photo.
 */
export function describeVerdict(
  t: TFunction,
  verdict: PhotoJudgement,
): { problems: string[]; tips: string[] } {
  return {
    problems: verdict.problems.map((problem) => t(`modelPhotos.problems.${problem}`)),
    tips: verdict.tips.map((tip) => t(`modelPhotos.tips.${tip}`)),
  };
}

export const countGoodPhotos = (photos: readonly PhotoJudgement[]) =>
  photos.filter((photo) => photo.ok).length;

/** Good photos still missing before training may start (0 when there are enough). */
export const photosStillNeeded = (goodCount: number, minPhotos: number) => Math.max(0, minPhotos - goodCount);

/** The kinds of photo the model wants a few of: a mix teaches it the person better. */
export const MIX_TIPS = ['photo.low_light', 'face.glasses', 'pose.front', 'pose.side'] as const;
export type MixTip = (typeof MIX_TIPS)[number];

/**
 * "A few" of each, among the good photos. Front views are the bulk of any set; side views, low
 * light and glasses are the ones people forget.
 */
export const MIX_TARGETS: Record<MixTip, number> = {
  'photo.low_light': 2,
  'face.glasses': 2,
  'pose.front': 3,
  'pose.side': 2,
};

export interface TipMix {
  counts: Record<MixTip, number>;
  /** The kinds with fewer than their target, in the order the tips are listed. */
  missing: MixTip[];
}

/** How many good photos are of each kind, and which kinds the set still lacks. */
export function summarizeTipMix(photos: readonly PhotoJudgement[]): TipMix {
  const counts = Object.fromEntries(MIX_TIPS.map((tip) => [tip, 0])) as Record<MixTip, number>;
  for (const photo of photos) {
    if (!photo.ok) continue;
    for (const tip of new Set(photo.tips)) counts[tip] += 1;
  }
  return { counts, missing: MIX_TIPS.filter((tip) => counts[tip] < MIX_TARGETS[tip]) };
}

/** A photo's look as the checks see it: its pose and whether it is in low light. */
export interface PhotoLook extends PhotoJudgement {
  pose: 'front' | 'side' | null;
}

/** Good photos from which a set can be said to lack variety. */
export const VARIETY_MIN_PHOTOS = 5;
/** The share of good photos in one pose and one light at which the set asks for variety. */
export const VARIETY_MAX_SAME_LOOK = 0.8;

/**
 * Whether most good photos share one pose and one light (at least VARIETY_MAX_SAME_LOOK of them,
 * among at least VARIETY_MIN_PHOTOS): the model learns a face better from different angles and
 * light, so the screen asks for variety.
 */
export function needsVariety(photos: readonly PhotoLook[]): boolean {
  const good = photos.filter((photo) => photo.ok);
  if (good.length < VARIETY_MIN_PHOTOS) return false;
  const looks = new Map<string, number>();
  for (const photo of good) {
    const look = `${photo.pose ?? 'unknown'}:${photo.tips.includes('photo.low_light') ? 'low' : 'normal'}`;
    looks.set(look, (looks.get(look) ?? 0) + 1);
  }
  return Math.max(...looks.values()) >= VARIETY_MAX_SAME_LOOK * good.length;
}
