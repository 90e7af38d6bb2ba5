import {
  GENERATION_FAILURE_REASONS,
  GENERATION_NOTE_CODES,
  type TGeneration,
  type TGenerationFailureReason,
  type TGenerationMode,
  type TGenerationNote,
  type TGenerationNoteCode,
  type TGenerationStatus,
  type TStyle,
  type TImageAspect,
} from '@mirra/contracts';
import type { MediaUrls } from '../../shared/storage/media-urls.js';
import type { EngineNote } from '../../engines/index.js';
import type { GenerationRow } from './generations.repository.js';

const isFailureReason = (value: string | null): value is TGenerationFailureReason =>
  (GENERATION_FAILURE_REASONS as readonly (string | null)[]).includes(value);

export type { StoredResult } from '../../shared/db/json-columns.js';

/** A note without a code (older results) is shown as the engine's English text. */
function toNoteJson(note: EngineNote | string): TGenerationNote {
  if (typeof note === 'string') return { code: null, params: {}, text: note };
  return {
    code: isNoteCode(note.code) ? note.code : null,
    params: note.params,
    text: note.text,
  };
}

const isNoteCode = (value: string | null): value is TGenerationNoteCode =>
  (GENERATION_NOTE_CODES as readonly (string | null)[]).includes(value);

export function toGenerationJson(row: GenerationRow, mediaUrls: MediaUrls, now: Date): TGeneration {
  const result = row.result;
  const extension =
    result?.original.contentType === 'video/mp4'
      ? 'mp4'
      : result?.original.contentType === 'image/jpeg'
        ? 'jpg'
        : 'png';
  return {
    uuid: row.uuid,
    mode: row.mode as TGenerationMode,
    status: row.status as TGenerationStatus,
    progress: row.progress,
    queue_position: row.queuePosition ?? null,
    prompt: row.prompt,
    guidance: row.guidance,
    seed: row.seed,
    style: (row.style as TStyle | null) ?? null,
    duration: row.durationSeconds,
    aspect: (row.aspect as TImageAspect | null) ?? null,
    settings: row.settings ?? {},
    set:
      row.setUuid && row.setIndex != null && row.setSize != null
        ? { uuid: row.setUuid, index: row.setIndex, size: row.setSize }
        : null,
    images: row.inputUploads,
    model_uuid: row.modelUuid,
    post_uuid: row.postUuid,
    cost: row.cost,
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
    result: result
      ? {
          url: mediaUrls.url(result.original.key, now),
          download_url: mediaUrls.url(result.original.key, now, {
            download: `mirra-${row.uuid.slice(0, 8)}.${extension}`,
          }),
          width: result.original.width,
          height: result.original.height,
          content_type: result.original.contentType,
          variants: result.variants.map((v) => ({
            url: mediaUrls.url(v.key, now),
            width: v.width,
            height: v.height,
          })),
          preview: result.preview
            ? {
                url: mediaUrls.url(result.preview.key, now),
                width: result.preview.width,
                height: result.preview.height,
              }
            : null,
          engine: result.engine,
          notes: result.notes.map(toNoteJson),
        }
      : null,
    error_code: row.errorCode,
    error_detail: row.errorDetail,
    error_reason: isFailureReason(row.errorReason) ? row.errorReason : null,
    refunded: row.refunded,
  };
}
