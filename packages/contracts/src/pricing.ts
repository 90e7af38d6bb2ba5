import { z } from 'zod';
import { MODE_PRICE_KEYS, type TModePriceKey } from './modes.js';

/**
 * The catalogue and prices an admin edits in the console: generation prices per mode (credits),
 * the free tier, the packs sold for money and the premium plan, with prices per region. The
 * server's configuration gives the defaults; the console's changes override them without a restart.
 * The bounds keep a typo (an extra zero or two) from reaching buyers.
 */
export const PRICING_BOUNDS = {
  /** Credits one generation (or one second of video) may cost; 0 makes a mode free. */
  modePrice: { min: 0, max: 10_000 },
  /** Generations a day before the free tier's pause; a million is the same as no pause. */
  dailyPhotos: { min: 0, max: 1_000_000 },
  delaySeconds: { min: 0, max: 86_400 },
  /** Minor units: kopecks (up to 1 000 000 ₽) and cents (up to $100 000); whole Telegram Stars. */
  ru: { min: 1, max: 100_000_000 },
  intl: { min: 1, max: 10_000_000 },
  stars: { min: 1, max: 10_000 },
  packCredits: { min: 1, max: 1_000_000 },
  packDays: { min: 1, max: 3_660 },
  planPeriodDays: { min: 1, max: 366 },
  planTrialDays: { min: 0, max: 90 },
  planCredits: { min: 0, max: 1_000_000 },
  products: { min: 1, max: 20 },
} as const;

/** A whole number within bounds, with messages a person can act on. */
export const wholeWithin = (bounds: { min: number; max: number }) =>
  z
    .number({ error: 'Enter a whole number.' })
    .int({ error: 'Enter a whole number.' })
    .min(bounds.min, { error: `At least ${bounds.min}.` })
    .max(bounds.max, { error: `At most ${bounds.max}.` });

/** A price per mode, by each mode's declared price key (video's is per second of output). */
export const ZModePrices = z.object(
  Object.fromEntries(MODE_PRICE_KEYS.map((key) => [key, wholeWithin(PRICING_BOUNDS.modePrice)])) as Record<
    TModePriceKey,
    ReturnType<typeof wholeWithin>
  >,
);
export type TModePrices = z.infer<typeof ZModePrices>;

/** This many generations a day with no pause, then `delay_seconds` between generations. */
export const ZFreeTier = z.object({
  daily_photos: wholeWithin(PRICING_BOUNDS.dailyPhotos),
  delay_seconds: wholeWithin(PRICING_BOUNDS.delaySeconds),
});
export type TFreeTier = z.infer<typeof ZFreeTier>;
