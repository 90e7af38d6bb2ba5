/**
 * The public face of the uploads module: the only file other modules and the composition root
 * import from it. Anything not exported here is the module's own business.
 */
export { normaliseUploadImage } from './upload-images.js';
export type { UploadsDeps } from './uploads.deps.js';
export { notAFile } from './uploads.errors.js';
export { detectImageType, isUuid, uploadStorageKey } from './uploads.models.js';
export { registerUploadsRoutes } from './uploads.routes.js';
export { toUploadJson } from './uploads.serializers.js';
export {
  copyStoredImageAsUpload,
  deleteRecording,
  loadUploadsForGeneration,
  removeCopiesOfGeneration,
} from './uploads.usecases.js';
