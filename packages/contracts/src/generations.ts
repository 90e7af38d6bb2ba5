import { z } from 'zod';
import { plainString } from './fields.js';
import {
  GENERATION_FAILURE_REASONS,
  GENERATION_NOTE_CODES,
  GUIDANCE_DEFAULT,
  GUIDANCE_MAX,
  GUIDANCE_MIN,
  PROMPT_MAX_LENGTH,
  STYLES,
  BACKGROUND_KINDS,
  CAMERA_MOVES,
  EXTEND_DIRECTIONS,
  IMAGE_ASPECTS,
  IMAGE_COUNT_MAX,
} from './generation-constants.js';
import { LANGUAGES } from './limits.js';
import { describeModes, GENERATION_MODES, SPEECH_MAX_SECONDS } from './modes.js';

export const ZGenerationMode = z
  .enum(GENERATION_MODES, { error: 'Choose a generation mode.' })
  .describe(describeModes());
export type TGenerationMode = z.infer<typeof ZGenerationMode>;

export const ZGenerationStatus = z.union([
  z.literal(-200),
  z.literal(-100),
  z.literal(0),
  z.literal(30),
  z.literal(60),
  z.literal(100),
]);

export const ZStyle = z.enum(STYLES, { error: 'Choose a style.' });
export type TStyle = z.infer<typeof ZStyle>;

export const ZToolSettings = z.strictObject({
  scale: z.union([z.literal(2), z.literal(4)], { error: 'Choose ×2 or ×4.' }).optional(),
  background: z.enum(BACKGROUND_KINDS, { error: 'Choose what goes behind the person.' }).optional(),
  colour: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, { error: 'Choose a colour like #1a2b3c.' })
    .optional(),
  mask: z.uuid().optional(),
  extend: z.enum(EXTEND_DIRECTIONS, { error: 'Choose where to add canvas.' }).optional(),
  garment: z.uuid().optional(),
  voice: z.uuid().optional(),
  language: z.enum(LANGUAGES, { error: `Choose ${LANGUAGES.join(', ')}.` }).optional(),
  pack: z.uuid({ error: 'Choose a photo pack.' }).optional(),
  camera: z.enum(CAMERA_MOVES, { error: 'Choose a camera move.' }).optional(),
});

export const ZCreateGenerationBody = z.object({
  mode: ZGenerationMode,
  prompt: plainString('multi')
    .trim()
    .max(PROMPT_MAX_LENGTH, { error: `Maximum number of characters - ${PROMPT_MAX_LENGTH}` })
    .default(''),
  guidance: z.number().min(GUIDANCE_MIN).max(GUIDANCE_MAX).default(GUIDANCE_DEFAULT),
  /** Upload uuids: the source photo (editing, styling), the target (face swap). */
  images: z.array(z.uuid()).max(4).default([]),
  model_uuid: z.uuid().nullish(),
  /** The published post this generation repeats or remixes (drives the author's royalty). */
  post_uuid: z.uuid().nullish(),
  style: ZStyle.nullish(),
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .nullish(),
  /**
   * Video length in seconds (video mode); a talking photo's recorded voice, its length (the
   * length of a spoken text is the server's own reckoning).
   */
  duration: z.number().int().min(1).max(SPEECH_MAX_SECONDS).nullish(),
  /**
   * Frame shape, width:height: a video's (9:16 when not given) or a picture's in the modes that
   * take one (the photo's own shape, or square, when not given).
   */
  aspect: z.enum(IMAGE_ASPECTS, { error: `Choose ${IMAGE_ASPECTS.join(', ')}.` }).nullish(),
  /** Pictures to make in one run (modes that take a count): each is its own generation, priced and refunded on its own. */
  count: z
    .number()
    .int()
    .min(1, { error: `Choose 1 to ${IMAGE_COUNT_MAX} pictures.` })
    .max(IMAGE_COUNT_MAX, { error: `Choose 1 to ${IMAGE_COUNT_MAX} pictures.` })
    .nullish(),
  /** The tools' settings (TOOL_SETTINGS); each mode reads only those it declares. */
  settings: ZToolSettings.nullish(),
});
export type TCreateGenerationBody = z.input<typeof ZCreateGenerationBody>;

export const ZImageVariant = z.object({ url: z.string(), width: z.number().int(), height: z.number().int() });

/**
 * One thing the engine says it did: a stable code the app words in the user's language with its
 * params, and the engine's English text, shown when there is no code (older results, other engines).
 */
export const ZGenerationNote = z.object({
  code: z.enum(GENERATION_NOTE_CODES).nullable(),
  params: z.record(z.string(), z.union([z.string(), z.number()])),
  text: z.string(),
});
export type TGenerationNote = z.infer<typeof ZGenerationNote>;

export const ZGenerationResult = z.object({
  /** Full-quality original for download. */
  url: z.string(),
  download_url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  content_type: z.string(),
  /** WebP renditions for feeds and lists, smallest first. */
  variants: z.array(ZImageVariant),
  /** A video's short looping animated WebP for grids; null for pictures (and videos made before it). */
  preview: ZImageVariant.nullish(),
  /** Which engine made it (`local` results are labelled so). */
  engine: z.string(),
  /** What the engine understood or did (e.g. the editing steps it applied). */
  notes: z.array(ZGenerationNote),
});

export const ZGeneration = z.object({
  uuid: z.uuid(),
  mode: ZGenerationMode,
  status: ZGenerationStatus,
  /** 0–100. */
  progress: z.number().int(),
  /** While a provider holds the job in its queue: how many jobs are ahead of it (0 = next). */
  queue_position: z.number().int().nullish(),
  prompt: z.string(),
  guidance: z.number(),
  seed: z.number().int(),
  style: ZStyle.nullable(),
  /** Video: length in seconds and frame shape (null for pictures). */
  duration: z.number().int().nullish(),
  aspect: z.enum(IMAGE_ASPECTS).nullish(),
  /** The tools' settings it was made with (only those its mode reads). */
  settings: ZToolSettings.nullish(),
  /**
   * One of the pictures made together by one run: the run's set (its first generation's uuid),
   * where this one stands in it (from 0) and how many it has; `GET /api/generations/?set=<uuid>`
   * lists them. Null for a run of one.
   */
  set: z.object({ uuid: z.uuid(), index: z.number().int(), size: z.number().int() }).nullish(),
  images: z.array(z.uuid()),
  model_uuid: z.uuid().nullable(),
  post_uuid: z.uuid().nullable(),
  cost: z.number().int(),
  created_at: z.iso.datetime(),
  finished_at: z.iso.datetime().nullable(),
  result: ZGenerationResult.nullable(),
  /** Set on ERROR/FAILED: a stable code and a message; credits are refunded by then. */
  error_code: z.string().nullable(),
  error_detail: z.string().nullable(),
  /** For `generations.bad_input`: what was wrong with the request, when the engine said. */
  error_reason: z.enum(GENERATION_FAILURE_REASONS).nullable(),
  refunded: z.boolean(),
});
export type TGeneration = z.infer<typeof ZGeneration>;

/** An integer from a query string ('20' → 20), with DRF's message when it is not one. */
const queryInt = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,6}$/, { error: 'A valid integer is required.' })
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

export const ZGenerationList = z.object({ results: z.array(ZGeneration), next: z.string().nullable() });
export const ZCursorQuery = z.object({
  cursor: z.string().max(64).optional(),
  /** Page size, 20 when left out. */
  limit: queryInt(1, 50).optional(),
});

export const ZGenerationListQuery = ZCursorQuery.extend({
  /** Only the pictures of this set (one run of several), in their order, on one page. */
  set: z.uuid().optional(),
});

export const ZPriceQuery = z.object({
  mode: ZGenerationMode,
  style: ZStyle.optional(),
  duration: queryInt(1, SPEECH_MAX_SECONDS).optional(),
  /** Pictures in the run (modes that take a count): the price is per picture. */
  count: queryInt(1, IMAGE_COUNT_MAX).optional(),
  /** The photo pack of a `pack` run: the price is the whole pack's. */
  pack: z.uuid().optional(),
});
export const ZPrice = z.object({
  cost: z.number().int(),
  balance: z.number().int().nullable(),
  /** Free-tier state for the caller: wait this many seconds before the next generation (0 = now). */
  wait_seconds: z.number().int(),
});

/** Server-sent event data on /api/generations/<uuid>/events/. */
export const ZGenerationEvent = z.object({
  uuid: z.uuid(),
  status: ZGenerationStatus,
  progress: z.number().int(),
  /** Jobs ahead of it in a provider's queue (0 = next); null or absent when none holds it waiting. */
  queue_position: z.number().int().nullish(),
});

export const ZPromptHelperBody = z.object({
  /** The user's wishes in any of the six languages. */
  text: plainString('multi').trim().min(1, { error: 'This field may not be blank.' }).max(PROMPT_MAX_LENGTH),
  mode: ZGenerationMode.optional(),
});
export const ZPromptHelperResult = z.object({
  prompt: z.string(),
  /** `llm` when an OpenAI-compatible model wrote it; `offline` for the bundled, simpler fallback. */
  source: z.enum(['llm', 'offline']),
});

export const ZUpload = z.object({
  uuid: z.uuid(),
  url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  content_type: z.string(),
  bytes: z.number().int(),
});
export type TUpload = z.infer<typeof ZUpload>;

/** An upload named in a path (any other string is answered like a missing upload). */
export const ZUploadParams = z.object({ uuid: z.string().max(64) });
