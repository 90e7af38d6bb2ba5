/**
 * The digital model's constants, apart from the zod schemas in `models.ts`: the web app imports
 * these values, and a module without zod keeps the schema library out of its bundles.
 */

/** Digital model categories (model creation). */
export const MODEL_CATEGORIES = ['female', 'male', 'custom'] as const;
export type TModelCategory = (typeof MODEL_CATEGORIES)[number];

export const MODEL_NAME_MAX_LENGTH = 60;

/** How long a consent link for a model of someone else can confirm (withdrawing works for ever). */
export const MODEL_CONSENT_LINK_DAYS = 7;

/**
 * Why a photo cannot count toward the model. The face checks run on the server with real face
 * analysis; the `file.*` ones are said of files that are not a readable photo at all.
 */
export const FACE_PHOTO_PROBLEMS = [
  'face.none',
  'face.multiple',
  'face.too_small',
  'photo.blurry',
  'face.different_person',
] as const;
export const FILE_PHOTO_PROBLEMS = [
  'file.unsupported',
  'file.too_big',
  'file.too_many_pixels',
  'file.blocked',
] as const;
/** A photo the model already has: the same picture, or it re-saved, resized or recompressed. */
export const COPY_PHOTO_PROBLEMS = ['photo.duplicate'] as const;
export const MODEL_PHOTO_PROBLEMS = [
  ...FACE_PHOTO_PROBLEMS,
  ...COPY_PHOTO_PROBLEMS,
  ...FILE_PHOTO_PROBLEMS,
] as const;
export type TModelPhotoProblem = (typeof MODEL_PHOTO_PROBLEMS)[number];

/**
 * What a photo is, never a reason to refuse it: the model wants a mix (a few in low light,
 * with glasses, front and side).
 */
export const MODEL_PHOTO_TIPS = ['photo.low_light', 'face.glasses', 'pose.front', 'pose.side'] as const;
export type TModelPhotoTip = (typeof MODEL_PHOTO_TIPS)[number];

/** Most files one upload request may carry (Android sends one at a time; the web sends many). */
export const MODEL_PHOTOS_PER_REQUEST = 30;
