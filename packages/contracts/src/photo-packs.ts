import { z } from 'zod';
import { LANGUAGES, type TLanguage } from './limits.js';
import { IMAGE_ASPECTS, PROMPT_MAX_LENGTH } from './generation-constants.js';
import { STAFF_REASON_MAX_LENGTH } from './admin.js';

/**
 * Photo packs: a themed set of English prompts that makes PHOTO_PACK_PICTURES_MIN to
 * PHOTO_PACK_PICTURES_MAX pictures of the person from their digital model in one purchase. Staff
 * make them in the console; a run of the `pack` mode makes one generation per prompt, all of one set.
 */
export const PHOTO_PACK_PICTURES_MIN = 10;
export const PHOTO_PACK_PICTURES_MAX = 40;
export const PHOTO_PACK_TITLE_MAX_LENGTH = 60;
export const PHOTO_PACK_DESCRIPTION_MAX_LENGTH = 240;
/** The highest price staff may set for one pack, in credits. */
export const PHOTO_PACK_PRICE_MAX = 10_000;

/** A text in each of the six languages (every one is required: a pack is shown in all of them). */
function translated(max: number) {
  return z.strictObject(
    Object.fromEntries(
      LANGUAGES.map((language) => [
        language,
        z
          .string({ error: 'This field may not be blank.' })
          .trim()
          .min(1, { error: 'This field may not be blank.' })
          .max(max),
      ]),
    ) as Record<TLanguage, z.ZodString>,
  );
}

/** A pack as the catalogue shows it: in the reader's language, with its price for the whole pack. */
export const ZPhotoPack = z.object({
  uuid: z.uuid(),
  title: z.string(),
  description: z.string(),
  /** An emoji shown on the card when the pack has no cover picture. */
  emoji: z.string(),
  /** The emoji drawn as art (an SVG data URL), the same on every device; null where the set lacks it. */
  emoji_art: z.string().nullable(),
  cover_url: z.string().nullable(),
  pictures: z.number().int(),
  aspect: z.enum(IMAGE_ASPECTS),
  /** Credits for every picture of the pack together. */
  price: z.number().int(),
});
export type TPhotoPack = z.infer<typeof ZPhotoPack>;
export const ZPhotoPackList = z.object({ results: z.array(ZPhotoPack) });

export const ZPhotoPackParams = z.object({ uuid: z.uuid() });
export const ZPhotoPackListQuery = z.object({ language: z.enum(LANGUAGES).optional() });

/** An album's pictures as one ZIP: one of my runs by its set uuid. */
export const ZGenerationSetParams = z.object({ uuid: z.uuid() });
export const ZGenerationSetArchiveLink = z.object({ url: z.string(), expires_at: z.iso.datetime() });
export const ZGenerationSetArchiveQuery = z.object({ key: z.string().max(200) });

const ZPackPrompt = z
  .string()
  .trim()
  .min(1, { error: 'This field may not be blank.' })
  .max(PROMPT_MAX_LENGTH, { error: `Maximum number of characters - ${PROMPT_MAX_LENGTH}` });

/** What staff set of a pack. */
export const ZStaffPhotoPackFields = z.object({
  titles: translated(PHOTO_PACK_TITLE_MAX_LENGTH),
  descriptions: translated(PHOTO_PACK_DESCRIPTION_MAX_LENGTH),
  emoji: z.string().trim().min(1).max(16),
  /** English prompts, one picture each (generations read English). */
  prompts: z
    .array(ZPackPrompt)
    .min(PHOTO_PACK_PICTURES_MIN, { error: `A pack makes at least ${PHOTO_PACK_PICTURES_MIN} pictures.` })
    .max(PHOTO_PACK_PICTURES_MAX, { error: `A pack makes at most ${PHOTO_PACK_PICTURES_MAX} pictures.` }),
  aspect: z.enum(IMAGE_ASPECTS),
  /** Credits for the whole pack; null: the console's price of a pack picture times its pictures. */
  price: z.number().int().min(1).max(PHOTO_PACK_PRICE_MAX).nullable(),
  /** Smaller first in the catalogue. */
  position: z.number().int().min(0).max(10_000),
  retired: z.boolean(),
});
export const ZStaffPhotoPackBody = ZStaffPhotoPackFields.extend({
  /** One of my uploads to become the cover; absent or null keeps the cover there is. */
  cover_upload: z.uuid().nullish(),
  reason: z.string().trim().min(1, { error: 'Say why.' }).max(STAFF_REASON_MAX_LENGTH),
});
export const ZStaffPhotoPack = ZStaffPhotoPackFields.extend({
  uuid: z.uuid(),
  /** The emoji drawn as art (a data URL), as the catalogue shows it; null when no art has it. */
  emoji_art: z.string().nullable(),
  cover_url: z.string().nullable(),
  /** The price in force (its own, or the per-picture price times its pictures). */
  effective_price: z.number().int(),
  updated_at: z.iso.datetime(),
});
export type TStaffPhotoPack = z.infer<typeof ZStaffPhotoPack>;
export const ZStaffPhotoPackList = z.object({ results: z.array(ZStaffPhotoPack) });
