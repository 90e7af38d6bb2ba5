import { billedSeconds, modeDeclaration, type TGenerationMode, type TModePrices } from '@mirra/contracts';

/**
 * What a generation costs in credits, by its mode's declared price: per run, or per second it
 * renders (the default length when none is asked for).
 */
export function priceGeneration(
  mode: TGenerationMode,
  options: { durationSeconds?: number | null },
  prices: TModePrices,
): number {
  const price = prices[modeDeclaration(mode).price.key as keyof TModePrices];
  const seconds = billedSeconds(mode, options.durationSeconds);
  return seconds === null ? price : price * seconds;
}

/** How many credits a user lacks for a price (0 when they can afford it). */
export function shortfall(balance: number, cost: number): number {
  return Math.max(0, cost - balance);
}
