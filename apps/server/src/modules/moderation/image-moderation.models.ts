import type { ModerationVerdict } from './moderation.types.js';

/** The classes of the nsfwjs classifier; its scores over them sum to 1. */
export const NSFW_CLASSES = ['Drawing', 'Hentai', 'Neutral', 'Porn', 'Sexy'] as const;
export type NsfwClass = (typeof NSFW_CLASSES)[number];
export type NsfwScores = Partial<Record<NsfwClass, number>>;

export function isNsfwClass(name: unknown): name is NsfwClass {
  return (NSFW_CLASSES as readonly unknown[]).includes(name);
}

export interface NsfwThresholds {
  /** Porn + Hentai above this is explicit. */
  explicit: number;
  /** Sexy above this is too suggestive to show. */
  suggestive: number;
}

export const DEFAULT_NSFW_THRESHOLDS: NsfwThresholds = { explicit: 0.7, suggestive: 0.85 };

/**
 * The result policy. Explicit content is judged on Porn and Hentai together: the classifier
 * often splits one explicit picture between them, and either alone would let it pass.
 */
export function judgeNsfwScores(scores: NsfwScores, thresholds: NsfwThresholds): ModerationVerdict {
  const explicit = (scores.Porn ?? 0) + (scores.Hentai ?? 0);
  const categories: string[] = [];
  if (explicit > thresholds.explicit) categories.push('sexual');
  if ((scores.Sexy ?? 0) > thresholds.suggestive) categories.push('sexual/suggestive');
  return { flagged: categories.length > 0, categories };
}
