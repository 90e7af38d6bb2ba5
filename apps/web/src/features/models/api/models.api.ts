import { api } from '../../../lib/api-client';
import { openEventStream, uploadForm, type UploadOptions } from '../../../lib/api-transfer';
import type { TCreateModelBody, TModel, TModelList, TModelPhotosUploaded } from '../../../lib/api-types';

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
  list: () => api.get<TModelList>('/api/models/', { query: { limit: LIST_LIMIT } }),
  get: (uuid: string) => api.get<TModel>(`/api/models/${uuid}/`),
  create: (body: TCreateModelBody) => api.post<TModel>('/api/models/', body),
  remove: (uuid: string) => api.request<null>('DELETE', `/api/models/${uuid}/`),
  removePhoto: (uuid: string, photoUuid: string) =>
    api.request<TModel>('DELETE', `/api/models/${uuid}/photos/${photoUuid}/`),
  train: (uuid: string) => api.post<TModel>(`/api/models/${uuid}/train/`),
  events: (uuid: string, signal: AbortSignal) => openEventStream(`/api/models/${uuid}/events/`, { signal }),
  /** One multipart request with every file; the answer has one verdict per file, in order. */
  uploadPhotos: (uuid: string, files: readonly PhotoFile[], options: UploadOptions = {}) => {
    const form = new FormData();
    for (const file of files) form.append('files', file.blob, file.name);
    return uploadForm<TModelPhotosUploaded>(`/api/models/${uuid}/photos/`, form, options);
  },
};
