import {
  IMAGE_ASPECTS,
  IMAGE_COUNT_MAX,
  UPSCALE_FACTOR_DEFAULT,
  VIDEO_ASPECTS,
  type TBackgroundKind,
  type TCameraMove,
  type TExtendDirection,
  type TUpscaleFactor,
} from './generation-constants.js';
import type { TLanguage } from './limits.js';
import { MODE_DECLARATIONS } from './mode-declarations.js';

export { MODE_DECLARATIONS, PHOTO_PACK_MODE } from './mode-declarations.js';

/**
 * Generation modes, each declared once. Everything that differs between modes reads these
 * declarations: the server's validation, the fields it keeps, the price of `/price/` and of the
 * charge, the free tier, which provider job the engines run, `/api/config/`, the OpenAPI
 * document and the web's create form. Adding a mode is: its declaration here, its local pipeline
 * and provider jobs on the server, its translations (`modes.<id>.*`), its tests
 * (docs/ADDING_A_MODE.md). Zod-free, so the web can import it without the schema library.
 */

/**
 * The kinds of job an engine runs. A mode maps each shape of its request (with a photo, without
 * one) to a kind; engines declare and implement kinds, never modes, so a new mode made of an
 * existing kind needs no engine change.
 */
export const JOB_KINDS = [
  /** A picture from a description. */
  'text_to_image',
  /** The photo changed as the description says. */
  'photo_edit',
  /** The photo redrawn in a style (the style's words lead the description). */
  'restyle',
  /** The user's face put onto a target photo. */
  'swap_face',
  /** A photo of the user (their digital model) in a scene from the description. */
  'face_photo',
  /** The photo animated (camera move, natural motion). */
  'image_to_video',
  /** A video from a description alone. */
  'text_to_video',
  /** The photo enlarged ×2 or ×4 with detail added (super-resolution). */
  'super_resolution',
  /** An old or damaged photo repaired: noise, scratches and dust, faded colour, soft faces. */
  'photo_repair',
  /** The person cut out of the photo, with a transparent background or another one behind them. */
  'cut_out',
  /** The painted part of the photo changed as the description says (removed when it says nothing). */
  'masked_fill',
  /** Canvas added around the photo in a direction or to a frame shape, filled to match. */
  'canvas_fill',
  /** The person of the photo dressed in the garment of a second photo. */
  'garment_swap',
  /** The person of the photo saying a text (or a recorded voice), the mouth moving with the speech. */
  'talking_video',
] as const;
export type TJobKind = (typeof JOB_KINDS)[number];

/**
 * Settings of the tools, kept in a generation's `settings`: the upscale factor, what goes behind a
 * cut-out person and its colour, the painted mask of an inpaint (an upload, white where to change),
 * where an outpaint adds canvas, the garment of a try-on (an upload), and the photo pack a pack run
 * makes (a pack's uuid: its prompts, frame shape and price).
 */
export const TOOL_SETTINGS = [
  'scale',
  'background',
  'colour',
  'mask',
  'extend',
  'garment',
  'pack',
  // A talking photo's recorded voice (an upload) and the language its text is spoken in.
  'voice',
  'language',
  // A video's named camera move (CAMERA_MOVES).
  'camera',
] as const;
export type TToolSetting = (typeof TOOL_SETTINGS)[number];
/** What a tool does when its optional setting is not chosen: ×2, and no background (transparency). */
const SETTING_DEFAULTS: Partial<ToolSettings> = { scale: UPSCALE_FACTOR_DEFAULT, background: 'transparent' };

/** Tool settings that name one of the caller's uploads. */
export const UPLOAD_SETTINGS = ['mask', 'garment'] as const satisfies readonly TToolSetting[];

export interface ModeDeclaration {
  id: string;
  /** What one run makes. */
  result: 'image' | 'video';
  /** A card of its own on the Create screen (video is reached from a result and from Home). */
  createCard: boolean;
  /**
   * A tool offered on every finished picture (a result, a post's picture being remixed): it
   * starts this mode with that picture as its photo.
   */
  pictureAction: boolean;
  inputs: {
    /**
     * The description: always needed, optional, needed only when there is no photo, or never read
     * (a photo pack brings its own).
     */
    prompt: 'required' | 'optional' | 'without_photo' | 'none';
    /** With a photo the description is not read, so it is neither shown nor stored. */
    promptIgnoredWithPhoto: boolean;
    /**
     * What the description says: a scene to make, or an edit of the photo (the prompt helper writes
     * each its way), or words to be spoken, in the language of `settings.language` (kept as typed,
     * not turned into English; a recorded voice stands in for them).
     */
    promptIs: 'scene' | 'edit' | 'speech';
    photo: 'none' | 'required' | 'optional';
    /** One of STYLES is required. */
    style: boolean;
    /** The caller's trained digital model is required. */
    model: boolean;
    /** A length (VIDEO_DURATIONS) is taken. */
    video: boolean;
    /** The frame shape taken: a picture's (IMAGE_ASPECTS), a video's (VIDEO_ASPECTS), or none. */
    aspect: 'image' | 'video' | 'none';
    /** 1 to IMAGE_COUNT_MAX pictures a run, each charged (and refunded) as one generation. */
    count: boolean;
    /** The tool settings it takes (TOOL_SETTINGS), each required or optional. */
    settings: Partial<Record<TToolSetting, 'required' | 'optional'>>;
  };
  /** The provider job that makes a request with a photo and without one (null: not offered). */
  jobs: { withPhoto: TJobKind | null; withoutPhoto: TJobKind | null };
  /**
   * The price: `key` names the console's price (and PRICE_<KEY> its default in the environment),
   * charged per run or per second rendered.
   */
  price: { key: string; per: 'run' | 'second'; default: number };
  /** Counts toward the free tier's daily allowance and its pause between generations. */
  freeTier: boolean;
}

export type TGenerationModeId = (typeof MODE_DECLARATIONS)[number]['id'];
/** The console's price keys (a mode's `price.key`). */
export type TModePriceKey = (typeof MODE_DECLARATIONS)[number]['price']['key'];

export const GENERATION_MODES = MODE_DECLARATIONS.map((mode) => mode.id) as unknown as readonly [
  TGenerationModeId,
  ...TGenerationModeId[],
];
export const MODE_PRICE_KEYS = MODE_DECLARATIONS.map((mode) => mode.price.key) as unknown as readonly [
  TModePriceKey,
  ...TModePriceKey[],
];

const BY_ID = new Map<string, ModeDeclaration>(MODE_DECLARATIONS.map((mode) => [mode.id, mode]));

/** The declaration of a mode (a mode the contracts do not declare is a programming error). */
export function modeDeclaration(mode: TGenerationModeId): ModeDeclaration {
  const declared = BY_ID.get(mode);
  if (!declared) throw new Error(`No generation mode ${String(mode)} is declared.`);
  return declared;
}

/** The frame shapes a mode takes (none for a mode that keeps the photo's). */
export function aspectsOf(mode: TGenerationModeId): readonly string[] {
  const { aspect } = modeDeclaration(mode).inputs;
  return aspect === 'image' ? IMAGE_ASPECTS : aspect === 'video' ? VIDEO_ASPECTS : [];
}

/** How many pictures a request makes: its count where the mode takes one, else one. */
export function imageCountOf(mode: TGenerationModeId, count: number | null | undefined): number {
  return modeDeclaration(mode).inputs.count ? Math.min(Math.max(count ?? 1, 1), IMAGE_COUNT_MAX) : 1;
}

/** Video lengths offered, in seconds (priced per second). */
export const VIDEO_DURATIONS = [3, 5, 10] as const;
export const VIDEO_DURATION_DEFAULT = 5;

/**
 * How many seconds a request is charged for and renders: the length asked for, else the default;
 * null for a mode priced per run. The price and the render both read this, so a request without
 * a length is charged for exactly what it gets.
 */
export function billedSeconds(mode: TGenerationModeId, duration: number | null | undefined): number | null {
  return modeDeclaration(mode).price.per === 'second' ? (duration ?? VIDEO_DURATION_DEFAULT) : null;
}

/** The longest speech a talking video says, in seconds (a recording is cut there too). */
export const SPEECH_MAX_SECONDS = 15;
/** The most text a talking video says: what the slowest of the six voices says in SPEECH_MAX_SECONDS. */
export const SPEECH_MAX_CHARACTERS = 140;

/**
 * Characters a second each language's synthesised voice says at its normal pace (eSpeak NG,
 * measured on a sentence of each: en 15.6, ru 15.1, de 15.5, uk 9.7, kk 14.5, az 12.8), a tenth
 * slower so a text with more pauses still fits.
 */
const SPEECH_CHARACTERS_PER_SECOND: Record<TLanguage, number> = {
  en: 14,
  ru: 13.6,
  de: 14,
  uk: 8.7,
  kk: 13,
  az: 11.5,
};

/**
 * How many seconds a text takes to say in its language (the slowest voice's pace when none is
 * named), with half a second for the breath before it; the render speeds a longer speech up to
 * fit, so the length charged is the length made.
 */
export function speechSecondsOf(text: string, language?: TLanguage | null): number {
  const perSecond = language
    ? SPEECH_CHARACTERS_PER_SECOND[language]
    : Math.min(...Object.values(SPEECH_CHARACTERS_PER_SECOND));
  const characters = text.trim().length;
  return Math.min(SPEECH_MAX_SECONDS, Math.max(2, Math.ceil(0.5 + characters / perSecond)));
}

/**
 * The length a spoken request renders and is charged for: the text's (speechSecondsOf), or a
 * recording's own length as the form measured it, whole seconds, at most SPEECH_MAX_SECONDS.
 */
export function spokenSeconds(request: {
  prompt: string;
  duration?: number | null;
  settings?: ToolSettings | null;
}): number {
  if (request.settings?.voice) {
    return Math.min(SPEECH_MAX_SECONDS, Math.max(1, Math.ceil(request.duration ?? SPEECH_MAX_SECONDS)));
  }
  return speechSecondsOf(request.prompt, request.settings?.language);
}

/** Whether the mode makes a video (a clip to play, priced and checked as one) rather than a picture. */
export function makesVideo(mode: TGenerationModeId): boolean {
  return modeDeclaration(mode).result === 'video';
}

/** The provider job a request makes: by its mode and whether it brings a photo. */
export function jobKindOf(mode: TGenerationModeId, imageCount: number): TJobKind | null {
  const { jobs } = modeDeclaration(mode);
  return imageCount > 0 ? jobs.withPhoto : jobs.withoutPhoto;
}

/** Every job kind a mode can run (an engine serves the mode when it runs one of them). */
export function jobKindsOf(mode: TGenerationModeId): TJobKind[] {
  const { jobs } = modeDeclaration(mode);
  return [jobs.withPhoto, jobs.withoutPhoto].filter((kind): kind is TJobKind => kind !== null);
}

/**
 * What each mode takes and makes, in words, from its declaration: the API document describes the
 * `mode` field with it.
 */
export function describeModes(): string {
  const photo = { none: 'no photo', required: 'one photo', optional: 'a photo or none' } as const;
  const prompt = {
    required: 'a description',
    optional: 'a description if wished',
    without_photo: 'a description when there is no photo',
    none: 'no description',
  } as const;
  return MODE_DECLARATIONS.map((mode) => {
    const { inputs } = mode;
    const takes = [
      photo[inputs.photo],
      prompt[inputs.prompt],
      ...(inputs.style ? ['a style'] : []),
      ...(inputs.model ? ['model_uuid (a trained digital model)'] : []),
      ...(inputs.video ? ['duration'] : []),
      ...(inputs.aspect !== 'none' ? [`aspect (${aspectsOf(mode.id).join(', ')})`] : []),
      ...(inputs.count ? [`count (1-${IMAGE_COUNT_MAX} pictures, each priced and refunded on its own)`] : []),
      ...Object.entries(inputs.settings).map(([name, need]) => `settings.${name} (${need})`),
    ];
    const price = mode.price.per === 'second' ? 'per second rendered' : 'per run';
    return `${mode.id}: makes ${mode.result === 'video' ? 'a video' : 'an image'}; takes ${takes.join(', ')}; priced ${price} (prices.${mode.price.key}).`;
  }).join('\n');
}

/** How many photos a mode takes. */
export function photoCountOf(mode: TGenerationModeId): { min: number; max: number } {
  const { photo } = modeDeclaration(mode).inputs;
  return { min: photo === 'required' ? 1 : 0, max: photo === 'none' ? 0 : 1 };
}

/** Whether the description is read for a request with this many photos. */
export function readsPrompt(mode: TGenerationModeId, imageCount: number): boolean {
  const { inputs } = modeDeclaration(mode);
  if (inputs.prompt === 'none') return false;
  return !(imageCount > 0 && inputs.promptIgnoredWithPhoto);
}

/**
 * What a request of the mode lacks, as field names: `prompt`, `images`, `images_or_prompt`
 * (a photo or a description), `style`, `model_uuid`. The server answers these as field errors and
 * the create form shows them before submitting.
 */
export type TMissingInput =
  'prompt' | 'images' | 'images_or_prompt' | 'style' | 'model_uuid' | `settings.${TToolSetting}`;

export function missingInputs(
  mode: TGenerationModeId,
  request: {
    prompt: string;
    imageCount: number;
    style?: string | null;
    modelUuid?: string | null;
    aspect?: string | null;
    settings?: ToolSettings | null;
  },
): TMissingInput[] {
  const { inputs } = modeDeclaration(mode);
  const missing: TMissingInput[] = [];
  const hasPrompt = request.prompt.trim().length > 0;
  const settings = request.settings ?? {};
  for (const [name, need] of Object.entries(inputs.settings) as Array<[TToolSetting, string]>) {
    if (need === 'required' && settings[name] == null) missing.push(`settings.${name}`);
  }
  // A replaced background needs what to replace it with: a colour, or a scene's description.
  if (inputs.settings.background && settings.background === 'colour' && !settings.colour) {
    missing.push('settings.colour');
  }
  if (inputs.settings.background && settings.background === 'scene' && !hasPrompt) missing.push('prompt');
  // Canvas is added in a direction or to a frame shape; one of them says where.
  if (inputs.settings.extend && !settings.extend && !request.aspect) missing.push('settings.extend');
  if (inputs.model && !request.modelUuid) missing.push('model_uuid');
  if (inputs.prompt === 'without_photo' && request.imageCount === 0 && !hasPrompt) {
    missing.push('images_or_prompt');
  } else if (inputs.photo === 'required' && request.imageCount === 0) missing.push('images');
  if (inputs.style && !request.style) missing.push('style');
  // A recorded voice stands in for the words to say.
  const spoken = Boolean(inputs.settings.voice && settings.voice);
  if (inputs.prompt === 'required' && !hasPrompt && !spoken) missing.push('prompt');
  return missing;
}

/**
 * Only what the mode reads is kept, so nothing it ignored is stored, shown or later published as
 * the post's recipe. Dropping rather than refusing lets a form that still holds another mode's
 * value go through.
 */
export function keepModeInputs<
  T extends {
    mode: TGenerationModeId;
    prompt: string;
    images: readonly string[];
    style?: string | null;
    model_uuid?: string | null;
    duration?: number | null;
    aspect?: string | null;
    count?: number | null;
    settings?: ToolSettings | null;
  },
>(body: T): T & { count: number; settings: ToolSettings } {
  const { inputs } = modeDeclaration(body.mode);
  const settings: ToolSettings = {};
  for (const name of Object.keys(inputs.settings) as TToolSetting[]) {
    const value = body.settings?.[name] ?? SETTING_DEFAULTS[name];
    if (value != null) (settings as Record<string, unknown>)[name] = value;
  }
  // A colour is kept only for a colour background.
  if (settings.background !== 'colour') delete settings.colour;
  return {
    ...body,
    // A background tool reads the description only for a scene.
    prompt:
      readsPrompt(body.mode, body.images.length) &&
      !(inputs.settings.background && settings.background !== 'scene')
        ? body.prompt
        : '',
    style: inputs.style ? (body.style ?? null) : null,
    model_uuid: inputs.model ? (body.model_uuid ?? null) : null,
    // A spoken mode's length is its speech's, never one asked for.
    duration: inputs.video
      ? (body.duration ?? null)
      : inputs.promptIs === 'speech'
        ? spokenSeconds({ ...body, settings })
        : null,
    aspect: aspectsOf(body.mode).includes(body.aspect ?? '') ? (body.aspect ?? null) : null,
    count: imageCountOf(body.mode, body.count),
    settings,
  };
}

/** The tool settings a request carries (each read only by the modes that declare it). */
export interface ToolSettings {
  scale?: TUpscaleFactor;
  background?: TBackgroundKind;
  /** `#rrggbb`. */
  colour?: string;
  /** An upload uuid: a PNG, white where the picture is to change. */
  mask?: string;
  extend?: TExtendDirection;
  /** An upload uuid: a photo of the garment. */
  garment?: string;
  /** An upload uuid: the person's recorded voice, said by the talking photo instead of a text. */
  voice?: string;
  /** The language the text is spoken in (one of the app's languages). */
  language?: TLanguage;
  /** A photo pack's uuid. */
  pack?: string;
  /** A video's camera move; without one the engine chooses. */
  camera?: TCameraMove;
}
