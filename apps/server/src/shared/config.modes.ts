import {
  GENERATION_MODES,
  MODE_DECLARATIONS,
  MODE_PRICE_KEYS,
  PRICING_BOUNDS,
  type TGenerationMode,
  type TModePriceKey,
  type TModePrices,
} from '@mirra/contracts';
import { z } from 'zod';
import { parseEngineList, withinBounds } from './config.parse.js';

/**
 * Generation prices: PRICE_<KEY> per mode's declared price key (PRICE_VIDEO_PER_SECOND is per
 * second of output), defaulting to the mode's declared price. The defaults are multiples of 5 so
 * that the prompt author's 20% of each is a whole credit; other prices still pay exactly 20% over
 * time (fractions are carried).
 */
const modePriceVariable = (key: TModePriceKey) =>
  `PRICE_${key.toUpperCase()}` as `PRICE_${Uppercase<TModePriceKey>}`;
const modePriceSchema = (price: number) => withinBounds(PRICING_BOUNDS.modePrice).default(price);
export const MODE_PRICE_ENV = Object.fromEntries(
  MODE_DECLARATIONS.map((mode) => [modePriceVariable(mode.price.key), modePriceSchema(mode.price.default)]),
) as Record<`PRICE_${Uppercase<TModePriceKey>}`, ReturnType<typeof modePriceSchema>>;

/**
 * Which engines serve each mode, in order (ENGINE_<MODE>): `local` (offline, built in) or a
 * provider's name; `fal,local` tries fal and moves to local when fal is down.
 */
const modeEngineVariable = (mode: TGenerationMode) =>
  `ENGINE_${mode.toUpperCase()}` as `ENGINE_${Uppercase<TGenerationMode>}`;
export const MODE_ENGINE_ENV = Object.fromEntries(
  GENERATION_MODES.map((mode) => [modeEngineVariable(mode), z.string().default('local')]),
) as Record<`ENGINE_${Uppercase<TGenerationMode>}`, z.ZodDefault<z.ZodString>>;

export function modePricesFrom(e: Record<`PRICE_${Uppercase<TModePriceKey>}`, number>): TModePrices {
  return Object.fromEntries(MODE_PRICE_KEYS.map((key) => [key, e[modePriceVariable(key)]])) as TModePrices;
}

export function modeEnginesFrom(
  e: Record<`ENGINE_${Uppercase<TGenerationMode>}`, string>,
): Record<TGenerationMode, string[]> {
  return Object.fromEntries(
    GENERATION_MODES.map((mode) => [mode, parseEngineList(e[modeEngineVariable(mode)])]),
  ) as Record<TGenerationMode, string[]>;
}
