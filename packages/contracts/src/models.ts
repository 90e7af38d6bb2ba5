import { z } from 'zod';
import { requiredText } from './fields.js';
import { ZGenerationStatus } from './generations.js';

/** Digital model categories (spec §2, model creation). */
export const MODEL_CATEGORIES = ['female', 'male', 'custom'] as const;
export const ZModelCategory = z.enum(MODEL_CATEGORIES, { error: 'Choose a model category.' });
export type TModelCategory = z.infer<typeof ZModelCategory>;

export const MODEL_NAME_MAX_LENGTH = 60;

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
export const FILE_PHOTO_PROBLEMS = ['file.unsupported', 'file.too_big', 'file.too_many_pixels'] as const;
export const MODEL_PHOTO_PROBLEMS = [...FACE_PHOTO_PROBLEMS, ...FILE_PHOTO_PROBLEMS] as const;
export type TModelPhotoProblem = (typeof MODEL_PHOTO_PROBLEMS)[number];

/**
 * What a photo is, never a reason to refuse it: the model wants a mix (spec §5: a few in low light,
 * with glasses, front and side).
 */
export const MODEL_PHOTO_TIPS = ['photo.low_light', 'face.glasses', 'pose.front', 'pose.side'] as const;
export type TModelPhotoTip = (typeof MODEL_PHOTO_TIPS)[number];

export const ZCreateModelBody = z.object({
  name: requiredText(MODEL_NAME_MAX_LENGTH),
  category: ZModelCategory.default('custom'),
});
export type TCreateModelBody = z.input<typeof ZCreateModelBody>;

/** Most files one upload request may carry (Android sends one at a time; the web sends many). */
export const MODEL_PHOTOS_PER_REQUEST = 30;

export const ZModelPhoto = z.object({
  uuid: z.uuid(),
  /** True when the photo counts toward the model (no problems). */
  ok: z.boolean(),
  problems: z.array(z.enum(MODEL_PHOTO_PROBLEMS)),
  tips: z.array(z.enum(MODEL_PHOTO_TIPS)),
  pose: z.enum(['front', 'side']).nullable(),
  /** A small private preview (signed, expiring URL for the owner); the original is never served. */
  thumbnail_url: z.string(),
  created_at: z.iso.datetime(),
});
export type TModelPhoto = z.infer<typeof ZModelPhoto>;

/** The verdict on one file of an upload, in the order the files were sent. */
export const ZModelPhotoVerdict = z.object({
  /** Null when the file was not a readable photo (then nothing was stored). */
  uuid: z.uuid().nullable(),
  /** The file name as sent, so the screen can match verdicts to the files the user chose. */
  filename: z.string(),
  ok: z.boolean(),
  problems: z.array(z.enum(MODEL_PHOTO_PROBLEMS)),
  tips: z.array(z.enum(MODEL_PHOTO_TIPS)),
  pose: z.enum(['front', 'side']).nullable(),
  thumbnail_url: z.string().nullable(),
});
export type TModelPhotoVerdict = z.infer<typeof ZModelPhotoVerdict>;

export const ZModelSummary = z.object({
  uuid: z.uuid(),
  name: z.string(),
  category: ZModelCategory,
  /** Task codes: NEW 0 (collecting photos), IN_QUEUE 30, IN_PROGRESS 60, COMPLETED 100, ERROR -100, FAILED -200. */
  status: ZGenerationStatus,
  /** Training progress 0–100. */
  progress: z.number().int(),
  /** Good photos (no problems): what the model is built from, and what counts toward the minimum. */
  reference_count: z.number().int(),
  /** Every stored photo, good or not. */
  photo_count: z.number().int(),
  /** Good photos needed before training (MODEL_MIN_PHOTOS). */
  min_photos: z.number().int(),
  /** Credits charged for training (0 until training is started). */
  cost: z.number().int(),
  /** Credits training costs now (PRICE_MODEL_TRAINING), so the screen can say so before charging. */
  training_price: z.number().int(),
  /** Preview of the best photo, when there is a good one. */
  cover_url: z.string().nullable(),
  created_at: z.iso.datetime(),
  trained_at: z.iso.datetime().nullable(),
  /** Set on ERROR/FAILED: a stable code and a message; the training's credits are refunded by then. */
  error_code: z.string().nullable(),
  error_detail: z.string().nullable(),
});
export type TModelSummary = z.infer<typeof ZModelSummary>;

export const ZModel = ZModelSummary.extend({
  /** Oldest first. */
  photos: z.array(ZModelPhoto),
});
export type TModel = z.infer<typeof ZModel>;

export const ZModelList = z.object({ results: z.array(ZModelSummary), next: z.string().nullable() });

export const ZModelPhotosUploaded = z.object({
  photos: z.array(ZModelPhotoVerdict),
  /** Good photos of the model after this upload (photos judged earlier may have changed too). */
  reference_count: z.number().int(),
  min_photos: z.number().int(),
});
export type TModelPhotosUploaded = z.infer<typeof ZModelPhotosUploaded>;

/** Server-sent event data on /api/models/<uuid>/events/. */
export const ZModelEvent = z.object({
  uuid: z.uuid(),
  status: ZGenerationStatus,
  progress: z.number().int(),
});
