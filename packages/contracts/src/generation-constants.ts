/**
 * The generation constants, apart from the zod schemas in `generations.ts`: the web app imports
 * these values, and a module without zod keeps the schema library out of its bundles.
 */
/** Generation modes (spec §2). `train` builds a digital model and is not created through this API. */
export const GENERATION_MODES = ['simple', 'face_swap', 'editing', 'styling', 'video'] as const;

/** Task status codes exactly as the spec's second set (spec §3), plus FAILED from the first. */
export const GenerationStatus = {
  FAILED: -200,
  ERROR: -100,
  NEW: 0,
  IN_QUEUE: 30,
  IN_PROGRESS: 60,
  COMPLETED: 100,
} as const;
export type TGenerationStatus = (typeof GenerationStatus)[keyof typeof GenerationStatus];

export const isTerminalStatus = (status: number) =>
  status === GenerationStatus.COMPLETED ||
  status === GenerationStatus.ERROR ||
  status === GenerationStatus.FAILED;

/**
 * Why an engine could not work with a request (ERROR with `generations.bad_input`), as a stable
 * code the app words in the user's language; `error_detail` keeps the engine's own English text.
 */
export const GENERATION_FAILURE_REASONS = [
  'photo_deleted',
  'model_deleted',
  'model_photo_deleted',
  'unreadable_photo',
  'no_face',
  'no_usable_references',
  'mode_unsupported',
  'edit_not_understood',
  'style_missing',
  'needs_model',
  'needs_photo_or_scene',
  'needs_one_photo',
] as const;
export type TGenerationFailureReason = (typeof GENERATION_FAILURE_REASONS)[number];

/** Styles the styling mode offers; the local engine implements each as an image pipeline. */
export const STYLES = ['cartoon', 'toy', 'oil', 'watercolor', 'pencil', 'pop_art'] as const;

export const PROMPT_MAX_LENGTH = 1000;
/** Guidance strength slider (advanced settings). */
export const GUIDANCE_MIN = 1;
export const GUIDANCE_MAX = 20;
export const GUIDANCE_DEFAULT = 7;
