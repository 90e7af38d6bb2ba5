import type { TFunction } from 'i18next';
import { ApiError } from './api-error';
import { describeError } from './error-messages';

/** Photo types the server takes (it checks the bytes; this only spares a useless upload). */
export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/heif'];
export const PHOTO_ACCEPT = [...PHOTO_TYPES, '.heic', '.heif'].join(',');

/** Whether a chosen file is worth uploading: a known photo type, or HEIC that the OS did not label. */
export function isAcceptedPhoto(file: { type: string; name: string }): boolean {
  if (PHOTO_TYPES.includes(file.type.toLowerCase())) return true;
  return !file.type && /\.(heic|heif)$/i.test(file.name);
}

/**
 * The message for a failed photo upload, in the user's language: 'File too big' with
 * the limit ('The file size must not exceed 15 MB'), unsupported or oversized images, the rest as
 * any other error.
 */
export function uploadErrorMessage(t: TFunction, error: unknown): string {
  if (error instanceof ApiError) {
    const body = (error.body ?? {}) as Record<string, unknown>;
    switch (error.code) {
      case 'uploads.too_big': {
        const limit = typeof body.max_mb === 'number' ? body.max_mb : null;
        return limit === null
          ? t('messages.fileTooBig')
          : `${t('messages.fileTooBig')}. ${t('messages.fileSizeLimit', { size: `${limit} MB` })}`;
      }
      case 'uploads.unsupported_type':
      case 'uploads.too_many_pixels':
      case 'common.payload_too_large':
      case 'common.throttled':
        return t(`errors.${error.code}`);
    }
  }
  return describeError(t, error, []).alert ?? t('errors.network');
}
