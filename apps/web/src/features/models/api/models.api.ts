import { LIVE_CHECK_FRAME_NAMES, routes } from '@mirra/contracts';
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
  /** A freshly signed consent link for a model of someone else. */
  consentLink: (uuid: string) => api(routes.models.consentLink, { params: { uuid } }),
  events: (uuid: string, signal: AbortSignal) =>
    openEventStream(routes.models.events, { params: { uuid }, signal }),
  /** The live check's three camera frames in one multipart request; the answer is the verdict. */
  liveCheck: (uuid: string, frames: Record<(typeof LIVE_CHECK_FRAME_NAMES)[number], Blob>) => {
    const form = new FormData();
    for (const name of LIVE_CHECK_FRAME_NAMES) form.append(name, frames[name], `${name}.jpg`);
    return uploadForm(routes.models.liveCheck, { params: { uuid }, body: form });
  },
  /** One multipart request with every file; the answer has one verdict per file, in order. */
  uploadPhotos: (uuid: string, files: readonly PhotoFile[], options: UploadOptions = {}) => {
    const form = new FormData();
    for (const file of files) form.append('files', file.blob, file.name);
    return uploadForm(routes.models.addPhotos, { params: { uuid }, body: form }, options);
  },
};

export const consentKeys = {
  one: (token: string) => ['consents', token] as const,
};

/** The consent page's calls: no account, the link's token is the key. */
export const consentsApi = {
  get: (token: string) => api(routes.consents.get, { params: { token } }),
  liveCheck: (token: string, frames: Record<(typeof LIVE_CHECK_FRAME_NAMES)[number], Blob>) => {
    const form = new FormData();
    for (const name of LIVE_CHECK_FRAME_NAMES) form.append(name, frames[name], `${name}.jpg`);
    return uploadForm(routes.consents.liveCheck, { params: { token }, body: form });
  },
  withdraw: (token: string) => api(routes.consents.withdraw, { params: { token } }),
};
