import { routes } from '@mirra/contracts';
import { api } from '../../../lib/api-client';
import { openEventStream, uploadForm, type UploadOptions } from '../../../lib/api-transfer';
import type { TCreateModelBody } from '../../../lib/api-types';

export const modelKeys = {
  all: ['models'] as const,
  list: () => ['models', 'list'] as const,
  one: (uuid: string) => ['models', 'one', uuid] as const,
};

/** How many of my models one list call reads: people have a handful, never pages of them. */
const LIST_LIMIT = 50;

/** A file to send as a model photo, under the name its verdict will carry. */
export interface PhotoFile {
  blob: Blob;
  name: string;
}

export const modelsApi = {
  list: () => api(routes.models.list, { query: { limit: LIST_LIMIT } }),
  get: (uuid: string) => api(routes.models.get, { params: { uuid } }),
  create: (body: TCreateModelBody) => api(routes.models.create, { body }),
  remove: (uuid: string) => api(routes.models.remove, { params: { uuid } }),
  removePhoto: (uuid: string, photoUuid: string) =>
    api(routes.models.removePhoto, { params: { uuid, photo_uuid: photoUuid } }),
  train: (uuid: string) => api(routes.models.train, { params: { uuid } }),
  events: (uuid: string, signal: AbortSignal) =>
    openEventStream(routes.models.events, { params: { uuid }, signal }),
  /** One multipart request with every file; the answer has one verdict per file, in order. */
  uploadPhotos: (uuid: string, files: readonly PhotoFile[], options: UploadOptions = {}) => {
    const form = new FormData();
    for (const file of files) form.append('files', file.blob, file.name);
    return uploadForm(routes.models.addPhotos, { params: { uuid }, body: form }, options);
  },
};
