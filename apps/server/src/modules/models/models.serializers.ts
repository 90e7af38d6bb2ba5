import type {
  TGenerationStatus,
  TModel,
  TModelCategory,
  TModelPhoto,
  TModelPhotoProblem,
  TModelPhotoTip,
  TModelSummary,
} from '@mirra/contracts';
import type { MediaUrls } from '../../shared/storage/media-urls.js';
import { THUMBNAIL_URL_SECONDS } from './models.models.js';
import type { ModelPhotoSummaryRow, ModelSummaryRow } from './models.repository.js';

/** Previews only, through short-lived signed links: originals never get a URL. */
export const thumbnailUrl = (mediaUrls: MediaUrls, key: string, now: Date) =>
  mediaUrls.url(key, now, { ttlSeconds: THUMBNAIL_URL_SECONDS });

export function toModelSummaryJson(
  row: ModelSummaryRow,
  context: {
    mediaUrls: MediaUrls;
    now: Date;
    minPhotos: number;
    trainingPrice: number;
    trainingSeconds: number;
    coverKey: string | null;
  },
): TModelSummary {
  return {
    uuid: row.uuid,
    name: row.name,
    category: row.category as TModelCategory,
    status: row.status as TGenerationStatus,
    progress: row.progress,
    reference_count: row.referenceCount,
    photo_count: row.photoCount,
    min_photos: context.minPhotos,
    cost: row.cost,
    training_price: context.trainingPrice,
    training_seconds: context.trainingSeconds,
    cover_url: context.coverKey ? thumbnailUrl(context.mediaUrls, context.coverKey, context.now) : null,
    created_at: row.createdAt.toISOString(),
    trained_at: row.trainedAt?.toISOString() ?? null,
    error_code: row.errorCode,
    error_detail: row.errorDetail,
  };
}

export function toModelPhotoJson(row: ModelPhotoSummaryRow, mediaUrls: MediaUrls, now: Date): TModelPhoto {
  return {
    uuid: row.uuid,
    ok: row.ok,
    problems: row.problems as TModelPhotoProblem[],
    tips: row.tips as TModelPhotoTip[],
    pose: (row.pose as 'front' | 'side' | null) ?? null,
    thumbnail_url: thumbnailUrl(mediaUrls, row.thumbnailKey, now),
    created_at: row.createdAt.toISOString(),
  };
}

export function toModelJson(
  row: ModelSummaryRow,
  photos: ModelPhotoSummaryRow[],
  context: {
    mediaUrls: MediaUrls;
    now: Date;
    minPhotos: number;
    trainingPrice: number;
    trainingSeconds: number;
    liveCheck: TModel['live_check'];
    consent: TModel['consent'];
  },
): TModel {
  const cover = photos.find((photo) => photo.ok)?.thumbnailKey ?? null;
  return {
    ...toModelSummaryJson(row, { ...context, coverKey: cover }),
    photos: photos.map((photo) => toModelPhotoJson(photo, context.mediaUrls, context.now)),
    live_check: context.liveCheck,
    subject: row.subject,
    consent: context.consent,
  };
}
