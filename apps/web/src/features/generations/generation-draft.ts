import {
  GUIDANCE_DEFAULT,
  GUIDANCE_MAX,
  GUIDANCE_MIN,
  missingInputs,
  modeDeclaration,
  PROMPT_MAX_LENGTH,
  readsPrompt,
  LANGUAGES,
  SPEECH_MAX_CHARACTERS,
  spokenSeconds,
  type TLanguage,
  STYLES,
  VIDEO_ASPECT_DEFAULT,
  VIDEO_ASPECTS,
  VIDEO_DURATION_DEFAULT,
  VIDEO_DURATIONS,
  IMAGE_ASPECTS,
  IMAGE_COUNT_MAX,
  UPSCALE_FACTORS,
  BACKGROUND_KINDS,
  CAMERA_MOVES,
  EXTEND_DIRECTIONS,
  type TImageAspect,
  type TMissingInput,
  type ToolSettings,
  type TVideoAspect,
} from '@mirra/contracts';
import type { TCreateGenerationBody, TGenerationMode, TStyle, TUpload } from '../../lib/api-types';

/** Everything the generate screen collects before submitting; kept per page for the session. */
export interface GenerationDraft {
  prompt: string;
  guidance: number;
  /** As typed: empty means a random seed. */
  seed: string;
  style: TStyle | null;
  modelUuid: string | null;
  /** The uploaded source photo (editing, styling, video) or scene (face swap). */
  photo: TUpload | null;
  /** Video: seconds (one of VIDEO_DURATIONS) and frame shape. */
  duration: number;
  aspect: TVideoAspect;
  /** Pictures a run makes (modes that take a count), 1 to IMAGE_COUNT_MAX. */
  count: number;
  /** A picture's frame shape (IMAGE_ASPECTS); null keeps the photo's own (or the engine's). */
  pictureAspect: TImageAspect | null;
  /** The tools' plain settings (upscale factor, background, colour, where to extend), a video's camera move. */
  settings: Pick<ToolSettings, 'scale' | 'background' | 'colour' | 'extend' | 'camera'>;
  /** The painted mask (an inpaint) and the garment's photo (a try-on), as uploads. */
  mask: TUpload | null;
  garment: TUpload | null;
  /** A talking photo's recorded voice (said instead of the text) and its length in seconds. */
  voice: { upload: TUpload; seconds: number } | null;
  /** The language a talking photo's text is spoken in; null: the app's language. */
  speechLanguage: TLanguage | null;
}

export const EMPTY_DRAFT: GenerationDraft = {
  prompt: '',
  guidance: GUIDANCE_DEFAULT,
  seed: '',
  style: null,
  modelUuid: null,
  photo: null,
  duration: VIDEO_DURATION_DEFAULT,
  aspect: VIDEO_ASPECT_DEFAULT,
  count: 1,
  pictureAspect: null,
  settings: {},
  mask: null,
  garment: null,
  voice: null,
  speechLanguage: null,
};

export const SEED_MAX = 2 ** 31 - 1;

/** The seed field's value: null for random, NaN when it is not a whole number in range. */
export function parseSeed(text: string): number | null {
  const trimmed = text.trim();
  if (!trimmed) return null;
  if (!/^\d{1,10}$/.test(trimmed)) return Number.NaN;
  const seed = Number(trimmed);
  return seed <= SEED_MAX ? seed : Number.NaN;
}

/**
 * Which fields the mode's form shows, from its declaration (the server checks the same and answers
 * with field errors). A photo may be optional: without one, a mode whose description stands in for
 * it (a face photo, a video of a scene) needs the description instead.
 */
export function modeNeeds(mode: TGenerationMode) {
  const { inputs } = modeDeclaration(mode);
  return {
    prompt: inputs.prompt === 'required',
    photo: inputs.photo !== 'none',
    style: inputs.style,
    model: inputs.model,
    /** A photo or a description, one of the two. */
    photoOrPrompt: inputs.prompt === 'without_photo',
    /** Length and frame shape. */
    video: inputs.video,
    /** Several pictures a run. */
    count: inputs.count,
    /** A picture's frame shape. */
    pictureAspect: inputs.aspect === 'image',
    scale: 'scale' in inputs.settings,
    background: 'background' in inputs.settings,
    mask: 'mask' in inputs.settings,
    extend: 'extend' in inputs.settings,
    garment: 'garment' in inputs.settings,
    /** Words to be spoken (a talking photo): their language and a recorded voice instead. */
    speech: inputs.promptIs === 'speech',
    /** A named camera move (none: the engine chooses). */
    camera: 'camera' in inputs.settings,
  };
}

/**
 * Whether the mode reads the description with this draft: face swap onto a photo does not (the
 * description makes a face photo when there is no photo), so the field is hidden and nothing is sent.
 */
export function usesPrompt(
  mode: TGenerationMode,
  draft: Pick<GenerationDraft, 'photo'> & Partial<Pick<GenerationDraft, 'settings'>>,
): boolean {
  const { inputs } = modeDeclaration(mode);
  // The background tool reads a description only for a scene behind the person.
  if ('background' in inputs.settings && draft.settings?.background !== 'scene') return false;
  // A mode that always takes a photo and then reads no description (upscale, restore, try-on)
  // shows no description field, even before the photo is chosen.
  if (inputs.photo === 'required' && inputs.promptIgnoredWithPhoto) return false;
  return readsPrompt(mode, draft.photo ? 1 : 0);
}

const PROBLEM_OF_MISSING = {
  model_uuid: 'model',
  images_or_prompt: 'photoOrPrompt',
  images: 'photo',
  style: 'style',
  prompt: 'prompt',
  'settings.scale': 'scale',
  'settings.background': 'backgroundKind',
  'settings.colour': 'colour',
  'settings.mask': 'mask',
  'settings.extend': 'extend',
  'settings.garment': 'garment',
  'settings.camera': 'camera',
  // A pack is chosen in the pack catalogue, never on the create form.
  'settings.pack': 'pack',
  // Optional: a talking photo says its text without them.
  'settings.voice': 'prompt',
  'settings.language': 'prompt',
} as const satisfies Record<TMissingInput, string>;

export type DraftProblem = (typeof PROBLEM_OF_MISSING)[TMissingInput] | 'promptTooLong' | 'seed';

/** What still stops the draft from being submitted, in the order the form shows its fields. */
export function draftProblems(mode: TGenerationMode, draft: GenerationDraft): DraftProblem[] {
  const problems: DraftProblem[] = missingInputs(mode, {
    prompt: draft.prompt,
    imageCount: draft.photo ? 1 : 0,
    style: draft.style,
    modelUuid: draft.modelUuid,
    aspect: draft.pictureAspect,
    settings: settingsOf(mode, draft),
  }).map((field) => PROBLEM_OF_MISSING[field]);
  const maxLength = modeNeeds(mode).speech ? SPEECH_MAX_CHARACTERS : PROMPT_MAX_LENGTH;
  if (usesPrompt(mode, draft) && draft.prompt.trim().length > maxLength) problems.push('promptTooLong');
  if (Number.isNaN(parseSeed(draft.seed))) problems.push('seed');
  return problems;
}

export function clampGuidance(value: number): number {
  if (!Number.isFinite(value)) return GUIDANCE_DEFAULT;
  return Math.min(GUIDANCE_MAX, Math.max(GUIDANCE_MIN, value));
}

/** The request body of POST /api/generations/ for a draft. */
export function buildCreateBody(
  mode: TGenerationMode,
  draft: GenerationDraft,
  extra: { postUuid?: string | null } = {},
): TCreateGenerationBody {
  const needs = modeNeeds(mode);
  const seed = parseSeed(draft.seed);
  return {
    mode,
    prompt: usesPrompt(mode, draft) ? draft.prompt.trim() : '',
    guidance: clampGuidance(draft.guidance),
    images: needs.photo && draft.photo ? [draft.photo.uuid] : [],
    model_uuid: needs.model ? draft.modelUuid : null,
    post_uuid: extra.postUuid ?? null,
    style: needs.style ? draft.style : null,
    seed: seed === null || Number.isNaN(seed) ? null : seed,
    ...(needs.video ? { duration: draft.duration, aspect: draft.aspect } : {}),
    ...(needs.pictureAspect && draft.pictureAspect ? { aspect: draft.pictureAspect } : {}),
    ...(needs.count && draft.count > 1 ? { count: draft.count } : {}),
    // A recording's length is what it is charged for; a text's the server reckons itself.
    ...(needs.speech && draft.voice ? { duration: draft.voice.seconds } : {}),
    ...(Object.keys(modeDeclaration(mode).inputs.settings).length
      ? { settings: settingsOf(mode, draft) }
      : {}),
  };
}

/**
 * The tool settings a draft sends: its plain settings and the uploads it painted or chose. An
 * extend not pointed anywhere adds canvas all round, as its picker shows.
 */
function settingsOf(mode: TGenerationMode, draft: GenerationDraft): ToolSettings {
  const extendsCanvas = 'extend' in modeDeclaration(mode).inputs.settings;
  return {
    ...draft.settings,
    ...(extendsCanvas && !draft.settings.extend ? { extend: 'all' as const } : {}),
    ...(draft.mask ? { mask: draft.mask.uuid } : {}),
    ...(draft.garment ? { garment: draft.garment.uuid } : {}),
    ...(modeNeeds(mode).speech && draft.voice ? { voice: draft.voice.upload.uuid } : {}),
    ...(modeNeeds(mode).speech && draft.speechLanguage ? { language: draft.speechLanguage } : {}),
  };
}

/** The seconds a talking photo's draft is priced for: its recording's, or its text's. */
export function draftSpeechSeconds(
  draft: Pick<GenerationDraft, 'prompt' | 'voice' | 'speechLanguage'>,
): number {
  return spokenSeconds({
    prompt: draft.prompt,
    duration: draft.voice?.seconds ?? null,
    settings: draft.voice
      ? { voice: draft.voice.upload.uuid }
      : draft.speechLanguage
        ? { language: draft.speechLanguage }
        : {},
  });
}

const isStyle = (value: unknown): value is TStyle =>
  typeof value === 'string' && (STYLES as readonly string[]).includes(value);

function readUpload(value: unknown): TUpload | null {
  const upload = value as TUpload | null | undefined;
  return upload && typeof upload.uuid === 'string' && typeof upload.url === 'string' ? upload : null;
}

/** Stored settings read back: a value the contracts do not offer is dropped. */
function readSettings(value: unknown): GenerationDraft['settings'] {
  const stored = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  const one = <T>(allowed: readonly T[], v: unknown) => (allowed.includes(v as T) ? { value: v as T } : null);
  const scale = one(UPSCALE_FACTORS, stored.scale);
  const background = one(BACKGROUND_KINDS, stored.background);
  const extend = one(EXTEND_DIRECTIONS, stored.extend);
  const camera = one(CAMERA_MOVES, stored.camera);
  const colour =
    typeof stored.colour === 'string' && /^#[0-9a-f]{6}$/i.test(stored.colour) ? stored.colour : null;
  return {
    ...(scale ? { scale: scale.value } : {}),
    ...(background ? { background: background.value } : {}),
    ...(colour ? { colour } : {}),
    ...(extend ? { extend: extend.value } : {}),
    ...(camera ? { camera: camera.value } : {}),
  };
}

/** A stored draft read back defensively: anything odd falls back to the empty draft's value. */
export function readDraft(raw: string | null): GenerationDraft {
  if (!raw) return EMPTY_DRAFT;
  try {
    const value = JSON.parse(raw) as Partial<Record<keyof GenerationDraft, unknown>>;
    const photo = value.photo as TUpload | null | undefined;
    return {
      prompt: typeof value.prompt === 'string' ? value.prompt : '',
      guidance: typeof value.guidance === 'number' ? clampGuidance(value.guidance) : GUIDANCE_DEFAULT,
      seed: typeof value.seed === 'string' ? value.seed : '',
      style: isStyle(value.style) ? value.style : null,
      modelUuid: typeof value.modelUuid === 'string' ? value.modelUuid : null,
      photo: photo && typeof photo.uuid === 'string' && typeof photo.url === 'string' ? photo : null,
      duration: (VIDEO_DURATIONS as readonly unknown[]).includes(value.duration)
        ? (value.duration as number)
        : VIDEO_DURATION_DEFAULT,
      aspect: (VIDEO_ASPECTS as readonly unknown[]).includes(value.aspect)
        ? (value.aspect as TVideoAspect)
        : VIDEO_ASPECT_DEFAULT,
      count:
        typeof value.count === 'number' && value.count >= 1 && value.count <= IMAGE_COUNT_MAX
          ? Math.round(value.count)
          : 1,
      pictureAspect: (IMAGE_ASPECTS as readonly unknown[]).includes(value.pictureAspect)
        ? (value.pictureAspect as TImageAspect)
        : null,
      settings: readSettings(value.settings),
      mask: readUpload(value.mask),
      garment: readUpload(value.garment),
      // A recording serves one generation and is deleted after it: never restored.
      voice: null,
      speechLanguage: (LANGUAGES as readonly unknown[]).includes(value.speechLanguage)
        ? (value.speechLanguage as TLanguage)
        : null,
    };
  } catch {
    return EMPTY_DRAFT;
  }
}
