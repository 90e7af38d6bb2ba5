import type { TGenerationMode } from '@mirra/contracts';

export interface PriceTable {
  simple: number;
  face_swap: number;
  editing: number;
  styling: number;
  videoPerSecond: number;
}

/** What a generation costs in credits, from configuration; video by the second. */
export function priceGeneration(
  mode: TGenerationMode,
  options: { durationSeconds?: number | null },
  prices: PriceTable,
): number {
  if (mode === 'video') return prices.videoPerSecond * (options.durationSeconds ?? DEFAULT_VIDEO_SECONDS);
  return prices[mode];
}

export const DEFAULT_VIDEO_SECONDS = 4;

/** How many credits a user lacks for a price (0 when they can afford it). */
export function shortfall(balance: number, cost: number): number {
  return Math.max(0, cost - balance);
}
