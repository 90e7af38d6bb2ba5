import { GENERATION_MODES, MODE_DECLARATIONS } from '@mirra/contracts';

/** ENGINE_<MODE> for every declared mode: each served by `engines` (a list, as the setting takes). */
export function everyModeServedBy(engines: string): Record<string, string> {
  return Object.fromEntries(GENERATION_MODES.map((mode) => [`ENGINE_${mode.toUpperCase()}`, engines]));
}

/**
 * PRICE_<KEY> for every declared mode, each a different price (3, 4, 5, …), so a test that mixes
 * modes sees which price was applied; `overrides` pins some by key (`{ simple: 3 }`).
 */
export function distinctModePrices(overrides: Record<string, number> = {}): Record<string, string> {
  return Object.fromEntries(
    MODE_DECLARATIONS.map((mode, index) => [
      `PRICE_${mode.price.key.toUpperCase()}`,
      String(overrides[mode.price.key] ?? index + 3),
    ]),
  );
}
