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

/**
 * Whose face a model is of: `self` (the owner, who takes the live check) or `other` (a partner, a
 * client: that person confirms through a consent link with their own live check).
 */
export const MODEL_SUBJECTS = ['self', 'other'] as const;
export const ZModelSubject = z.enum(MODEL_SUBJECTS);
export type TModelSubject = z.infer<typeof ZModelSubject>;

export const ZCreateModelBody = z.object({
  name: requiredText(MODEL_NAME_MAX_LENGTH),
  category: ZModelCategory.default('custom'),
  subject: ZModelSubject.default('self'),
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
  /** Whose face it is: the owner's own (`self`) or another person's (`other`). */
  subject: ZModelSubject,
  /**
   * For a model of someone else: whether that person confirmed through the consent link (with
   * their own live check). Training waits for `confirmed`. Null for one's own model.
   */
  consent: z.enum(['pending', 'confirmed']).nullable(),
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

/** The page a consent link opens (the token is its only key). */
export const consentPagePath = (token: string) => `/consent/${token}/`;

/** A consent token's shape: anything else is answered like a missing consent. */
export const ZConsentTokenParams = z.object({
  token: z
    .string()
    .regex(/^[A-Za-z0-9_-]{10,64}\.[0-9a-z]{1,12}\.[A-Za-z0-9_-]{20,64}$/, { error: 'Not found.' }),
});

/** The link the owner of a model of someone else sends that person. */
export const ZConsentLink = z.object({
  url: z.string(),
  /** Until then the link can confirm consent; withdrawing by it works at any time. */
  expires_at: z.iso.datetime(),
  status: z.enum(['pending', 'confirmed']),
});
export type TConsentLink = z.infer<typeof ZConsentLink>;

/**
 * What the person asked for consent sees: who asks, for which model, and where it stands.
 * `closed`: the owner deleted the model; `withdrawn`: consent was withdrawn (for good).
 */
export const ZConsent = z.object({
  status: z.enum(['pending', 'confirmed', 'withdrawn', 'closed']),
  /** The asking person's public name. */
  owner_name: z.string(),
  model_name: z.string(),
  /** The best of the photos the owner added (a small signed preview), so the person sees it is them. */
  cover_url: z.string().nullable(),
  /** Good photos the owner added; the live check compares the person's face with them. */
  photo_count: z.number().int(),
  /** The link can confirm until then (later only withdraw). */
  expires_at: z.iso.datetime(),
  is_expired: z.boolean(),
  confirmed_at: z.iso.datetime().nullable(),
  withdrawn_at: z.iso.datetime().nullable(),
});
export type TConsent = z.infer<typeof ZConsent>;

/** The answer to a consent live check: its verdict, and the consent after it. */
export const ZConsentCheckResult = ZLiveCheckResult.extend({ consent: ZConsent });
export type TConsentCheckResult = z.infer<typeof ZConsentCheckResult>;
