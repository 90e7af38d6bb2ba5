/**
 * The generation constants, apart from the zod schemas in `generations.ts`: the web app imports
 * these values, and a module without zod keeps the schema library out of its bundles.
 */
// Generation modes are declared in modes.ts (`train` builds a digital model and is not created
// through this API).

/** Task status codes; fixed numbers, since clients compare them and rows store them. */
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
  'photo_too_small',
  'no_person',
  'empty_mask',
] as const;
export type TGenerationFailureReason = (typeof GENERATION_FAILURE_REASONS)[number];

/** Styles the styling mode offers; the local engine implements each as an image pipeline. */
export const STYLES = ['cartoon', 'toy', 'oil', 'watercolor', 'pencil', 'pop_art'] as const;

/**
 * Stable codes of what the local engine says it did with a result. The app words each in the
 * user's language, filling in the note's params; the engine's English text stays as the fallback
 * (results made before codes existed have only the text).
 */
export const GENERATION_NOTE_CODES = [
  'scene.procedural',
  'scene.keywords',
  'scene.no_keywords',
  'scene.abstract',
  'scene.subjects',
  'scene.not_drawn',
  'face_photo.cut_out',
  'edit.rotated_180',
  'edit.rotated_clockwise',
  'edit.rotated_counter_clockwise',
  'edit.mirrored',
  'edit.flipped',
  'edit.cropped_aspect',
  'edit.cropped_centre',
  'edit.auto_levels',
  'edit.brightness',
  'edit.contrast',
  'edit.saturation',
  'edit.warmer',
  'edit.cooler',
  'edit.grayscale',
  'edit.sepia',
  'edit.inverted',
  'edit.blur_background',
  'edit.blur',
  'edit.upscale_factor',
  'edit.upscale_side',
  'edit.upscaled',
  'edit.upscaled_capped',
  'edit.not_upscaled',
  'edit.sharpen',
  'edit.ignored',
  'edit.background_replaced',
  'edit.background_no_person',
  'edit.blur_background_person',
  'edit.sky_sunset',
  'edit.sky_dusk',
  'edit.sky_night',
  'edit.sky_stormy',
  'edit.sky_clear',
  'edit.no_sky',
  'edit.light_sunset',
  'edit.light_golden',
  'edit.light_dusk',
  'edit.light_night',
  'edit.light_sunny',
  'edit.light_stormy',
  'edit.fog',
  'edit.rain',
  'edit.snow',
  'edit.vintage',
  'styling.intro',
  'styling.worked_at',
  'styling.faces_kept',
  // One per step of each style's recipe, in order (styling.pipeline.ts).
  'styling.cartoon.1',
  'styling.cartoon.2',
  'styling.cartoon.3',
  'styling.toy.1',
  'styling.toy.2',
  'styling.toy.3',
  'styling.toy.4',
  'styling.oil.1',
  'styling.oil.2',
  'styling.oil.3',
  'styling.oil.4',
  'styling.watercolor.1',
  'styling.watercolor.2',
  'styling.watercolor.3',
  'styling.watercolor.4',
  'styling.pencil.1',
  'styling.pencil.2',
  'styling.pencil.3',
  'styling.pencil.4',
  'styling.pop_art.1',
  'styling.pop_art.2',
  'styling.pop_art.3',
  'styling.pop_art.4',
  'face_swap.method_front',
  'face_swap.method_side',
  'face_swap.many_faces',
  'face_swap.worked_at',
  'face_photo.method',
  'provider.made_by',
  'provider.fallback',
  'video.camera_move',
  'video.camera_preset',
  'video.face_centred',
  'video.face_motion',
  'video.talking',
  'video.talking_voice',
  'video.talking_faster',
  'video.no_face',
  'video.parallax',
  'video.scene_animated',
  'video.scene_light',
  'video.scene_clouds',
  'video.scene_stars',
  'video.scene_water',
  'video.scene_rain',
  'video.scene_snow',
  'video.scene_camera',
  'background.cut_out',
  'background.removed',
  'background.colour',
  'background.blurred',
  'inpaint.filled',
  'inpaint.not_drawn',
  'outpaint.extended',
  'outpaint.nothing',
  'upscale.network',
  'upscale.network_capped',
  'upscale.classical',
  'upscale.classical_capped',
  'restore.defects',
  'restore.denoised',
  'restore.levels',
  'restore.colour_cast',
  'restore.faces',
  'restore.nothing',
] as const;
export type TGenerationNoteCode = (typeof GENERATION_NOTE_CODES)[number];

/** Video frame shapes offered, width:height. */
export const VIDEO_ASPECTS = ['9:16', '1:1', '16:9'] as const;
export type TVideoAspect = (typeof VIDEO_ASPECTS)[number];
export const VIDEO_ASPECT_DEFAULT: TVideoAspect = '9:16';

/**
 * Picture sizes offered, width:height: square, the feed's portrait shapes, the story's 9:16 and the
 * screen's 16:9. A picture mode without one asked for keeps its own shape (a photo's, or square).
 */
export const IMAGE_ASPECTS = ['1:1', '4:5', '3:4', '2:3', '9:16', '16:9'] as const;
export type TImageAspect = (typeof IMAGE_ASPECTS)[number];
/** Pictures made by one run of a mode that takes a count: each is charged and refunded on its own. */
export const IMAGE_COUNT_MAX = 4;

/** Enlargement factors of the upscale tool. */
export const UPSCALE_FACTORS = [2, 4] as const;
export const UPSCALE_FACTOR_DEFAULT = 2;
export type TUpscaleFactor = (typeof UPSCALE_FACTORS)[number];

/** What the background tool puts behind the person: nothing (a PNG with transparency), a colour, the photo blurred, or a described scene. */
export const BACKGROUND_KINDS = ['transparent', 'colour', 'blur', 'scene'] as const;
export type TBackgroundKind = (typeof BACKGROUND_KINDS)[number];

/** Where the extend tool adds canvas (or to an aspect, all round). */
export const EXTEND_DIRECTIONS = ['left', 'right', 'up', 'down', 'all'] as const;
export type TExtendDirection = (typeof EXTEND_DIRECTIONS)[number];

/**
 * The named camera moves a video takes (`settings.camera`): the local engine moves its camera over
 * the photo or scene this way, and a provider gets the move as its model's camera parameter or, for
 * a model without one, in the words of CAMERA_MOVE_WORDS. Without one, the engine chooses.
 */
export const CAMERA_MOVES = [
  'zoom_in',
  'zoom_out',
  'pan_left',
  'pan_right',
  'orbit',
  'dolly_in',
  'handheld',
  'crane_up',
  'parallax',
] as const;
export type TCameraMove = (typeof CAMERA_MOVES)[number];
/** How a video model without a camera parameter is told each move (English, as prompts are). */
export const CAMERA_MOVE_WORDS: Record<TCameraMove, string> = {
  zoom_in: 'Camera: a slow, steady zoom in towards the subject.',
  zoom_out: 'Camera: a slow zoom out revealing more of the scene.',
  pan_left: 'Camera: a smooth pan to the left.',
  pan_right: 'Camera: a smooth pan to the right.',
  orbit: 'Camera: a slow orbit around the subject.',
  dolly_in: 'Camera: a dolly in, moving forward towards the subject.',
  handheld: 'Camera: handheld, with a gentle natural sway.',
  crane_up: 'Camera: a crane shot rising upwards.',
  parallax: 'Camera: a sideways parallax move, the subject separating from the background.',
};

export const PROMPT_MAX_LENGTH = 1000;
/** Guidance strength slider (advanced settings). */
export const GUIDANCE_MIN = 1;
export const GUIDANCE_MAX = 20;
export const GUIDANCE_DEFAULT = 7;

/**
 * The pixel size of a frame shape with its longer side `longSide`, both sides rounded to a
 * multiple of `multiple` (diffusion models work in blocks of 8 or 16 pixels).
 */
export function aspectSize(
  aspect: string,
  longSide: number,
  multiple = 16,
): { width: number; height: number } {
  const [w, h] = aspect.split(':').map(Number) as [number, number];
  const round = (value: number) => Math.max(multiple, Math.round(value / multiple) * multiple);
  return w >= h
    ? { width: round(longSide), height: round((longSide * h) / w) }
    : { width: round((longSide * w) / h), height: round(longSide) };
}
