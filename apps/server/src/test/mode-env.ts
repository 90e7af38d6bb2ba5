import {
  EXTEND_DIRECTIONS,
  GENERATION_MODES,
  MODE_DECLARATIONS,
  modeDeclaration,
  UPSCALE_FACTORS,
  type TGenerationMode,
  type ToolSettings,
  type TToolSetting,
} from '@mirra/contracts';

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

/** A photo pack every installation starts with (migration 0043): ten pictures, priced per picture. */
export const SEEDED_PHOTO_PACK = { uuid: '5a170000-0000-4000-8000-000000000001', pictures: 10 } as const;

/** How many pictures a request makes: a photo pack's pictures, or its count, or one. */
export function picturesOf(request: { count?: number | null; settings?: ToolSettings | null }): number {
  return request.settings?.pack ? SEEDED_PHOTO_PACK.pictures : (request.count ?? 1);
}

/**
 * Valid tool settings for a mode, from what its declaration takes: `upload` stands for the mask
 * and the garment (any of the caller's uploads), `pick` chooses among the allowed values.
 */
export function settingsFor(
  mode: TGenerationMode,
  upload: string,
  pick: <T>(values: readonly T[]) => T = (values) => values[0]!,
): ToolSettings {
  const settings: ToolSettings = {};
  const declared = modeDeclaration(mode).inputs.settings as Partial<Record<TToolSetting, string>>;
  if (declared.scale) settings.scale = pick(UPSCALE_FACTORS);
  // A scene would need a description; the other backgrounds stand alone.
  if (declared.background) settings.background = pick(['transparent', 'colour', 'blur'] as const);
  if (settings.background === 'colour') settings.colour = '#336699';
  if (declared.mask) settings.mask = upload;
  if (declared.extend) settings.extend = pick(EXTEND_DIRECTIONS);
  if (declared.garment) settings.garment = upload;
  if (declared.pack) settings.pack = SEEDED_PHOTO_PACK.uuid;
  return settings;
}
