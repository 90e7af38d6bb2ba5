import { z } from 'zod';
import { requiredText } from './fields.js';
import { ZGenerationStatus } from './generations.js';
import {
  MODEL_CATEGORIES,
  MODEL_NAME_MAX_LENGTH,
  MODEL_PHOTO_PROBLEMS,
  MODEL_PHOTO_TIPS,
} from './model-constants.js';

export const ZModelCategory = z.enum(MODEL_CATEGORIES, { error: 'Choose a model category.' });

export const ZCreateModelBody = z.object({
  name: requiredText(MODEL_NAME_MAX_LENGTH),
  category: ZModelCategory.default('custom'),
});
export type TCreateModelBody = z.input<typeof ZCreateModelBody>;

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
  /**
   * Credits training costs this person now, so the screen can say so before charging: 0 for the
   * first model of an account (a first-model offer), else PRICE_MODEL_TRAINING.
   */
  training_price: z.number().int(),
  /** How long training usually takes on the engine that will train it, in seconds. */
  training_seconds: z.number().int(),
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
  /**
   * The latest live check: `passed` lets training start; `refused` asks for another try; null
   * when there is none (or the photos changed since, so it no longer counts).
   */
  live_check: z.enum(['passed', 'refused']).nullable(),
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

/** A model named in a path (any other string is answered like a missing model). */
export const ZModelParams = z.object({ uuid: z.string().max(64) });
export const ZModelPhotoParams = z.object({ uuid: z.string().max(64), photo_uuid: z.string().max(64) });

/** The live check's frames, as multipart file fields, in the order the person is asked for them. */
export const LIVE_CHECK_FRAME_NAMES = ['straight', 'left', 'right'] as const;

/** Why a live check was refused (every reason found is listed). */
export const LIVE_CHECK_PROBLEMS = [
  'face.none',
  'face.multiple',
  'pose.not_straight',
  'pose.no_turn',
  'spoof.flat',
  'face.different_person',
] as const;
export type TLiveCheckProblem = (typeof LIVE_CHECK_PROBLEMS)[number];

export const ZLiveCheckResult = z.object({
  passed: z.boolean(),
  problems: z.array(z.enum(LIVE_CHECK_PROBLEMS)),
});
export type TLiveCheckResult = z.infer<typeof ZLiveCheckResult>;
