import { AppError, fieldError } from '../../shared/errors.js';
import { formatMegabytes } from './uploads.models.js';

/**
 * Upload errors carry a `detail` for toasts and the DRF field list under `file` for the form,
 * plus the limit as a number so the client can word it itself.
 */
export function uploadTooBig(maxMegabytes: number): AppError {
  return new AppError({
    code: 'uploads.too_big',
    detail: 'File too big',
    fields: { file: [`The file size must not exceed ${formatMegabytes(maxMegabytes)} MB`] },
    extra: { max_mb: maxMegabytes },
  });
}

export function uploadTooManyPixels(maxPixels: number): AppError {
  const megapixels = Math.round(maxPixels / 100_000) / 10;
  return new AppError({
    code: 'uploads.too_many_pixels',
    detail: 'Image too large',
    fields: { file: [`The image must not exceed ${megapixels} megapixels`] },
    extra: { max_pixels: maxPixels },
  });
}

// DRF ImageField's message.
const INVALID_IMAGE =
  'Upload a valid image. The file you uploaded was either not an image or a corrupted image.';

export function uploadUnsupported(): AppError {
  return new AppError({
    code: 'uploads.unsupported_type',
    detail: 'Unsupported file type. Upload a JPEG, PNG, WebP or HEIC image.',
    fields: { file: [INVALID_IMAGE] },
  });
}

export const noFileSubmitted = () => fieldError('common.validation', { file: ['No file was submitted.'] });
export const emptyFileSubmitted = () =>
  fieldError('common.validation', { file: ['The submitted file is empty.'] });
export const notAFile = () =>
  fieldError('common.validation', {
    file: ['The submitted data was not a file. Check the encoding type on the form.'],
  });

export const oneFileOnly = () => fieldError('common.validation', { file: ['Upload one file at a time.'] });

export const uploadNotFound = () => new AppError({ code: 'uploads.not_found', detail: 'Not found.' });
