import { videoSecondsFor, type TGenerationMode } from '@mirra/contracts';

export interface PriceTable {
  simple: number;
  face_swap: number;
  editing: number;
  styling: number;
  videoPerSecond: number;
}

/**
 * What a generation costs in credits, from configuration; video by the second it renders (the
 * default length when none is asked for).
 */
export function priceGeneration(
  mode: TGenerationMode,
  options: { durationSeconds?: number | null },
  prices: PriceTable,
): number {
  const seconds = videoSecondsFor(mode, options.durationSeconds);
  if (seconds !== null) return prices.videoPerSecond * seconds;
  return prices[mode as Exclude<TGenerationMode, 'video'>];
}

/** How many credits a user lacks for a price (0 when they can afford it). */
export function shortfall(balance: number, cost: number): number {
  return Math.max(0, cost - balance);
}
