import { routes } from '@mirra/contracts';
import { api } from '../../../lib/api-client';
import { openEventStream, uploadForm } from '../../../lib/api-transfer';
import { PHOTO_PACK_MODE, type TLanguage } from '@mirra/contracts';
import type { TCreateGenerationBody, TGenerationMode, TStyle } from '../../../lib/api-types';

export const generationKeys = {
  all: ['generations'] as const,
  list: () => ['generations', 'list'] as const,
  one: (uuid: string) => ['generations', 'one', uuid] as const,
  /** Every price line: each shows the balance too, so any change of balance refreshes them. */
  prices: () => ['generations', 'price'] as const,
  photoPacks: (language: string) => ['generations', 'photo-packs', language] as const,
  packPrice: (pack: string, signedIn: boolean) =>
    [...generationKeys.prices(), PHOTO_PACK_MODE, pack, signedIn] as const,
  price: (
    mode: TGenerationMode,
    style: TStyle | null,
    signedIn: boolean,
    duration: number | null = null,
    count = 1,
  ) => [...generationKeys.prices(), mode, style, signedIn, duration, count] as const,
};

const idempotencyHeaders = (key: string | undefined) => (key ? { 'Idempotency-Key': key } : undefined);

export const generationsApi = {
  /** Video is priced per second (its `duration` goes along), a run of pictures per picture (its `count`). */
  price: (mode: TGenerationMode, style: TStyle | null, duration: number | null = null, count = 1) =>
    api(routes.generations.price, { query: { mode, style, duration, count: count > 1 ? count : null } }),
  /** `idempotencyKey` makes a resend after a lost answer return the same generation, charged once. */
  create: (body: TCreateGenerationBody, idempotencyKey?: string) =>
    api(routes.generations.create, { body, headers: idempotencyHeaders(idempotencyKey) }),
  get: (uuid: string) => api(routes.generations.get, { params: { uuid } }),
  list: (cursor: string | null) => api(routes.generations.list, { query: { cursor, limit: 24 } }),
  /** The pictures of one run, in their order. */
  listSet: (set: string) => api(routes.generations.list, { query: { set } }),
  /** A short-lived link to an album's finished pictures as one ZIP. */
  archiveLink: (set: string) => api(routes.generationSets.archiveLink, { params: { uuid: set } }),
  /** The photo packs on sale, in a language. */
  photoPacks: (language: TLanguage) => api(routes.photoPacks.catalogue, { query: { language } }),
  /** The price of a whole pack and my balance. */
  packPrice: (pack: string) => api(routes.generations.price, { query: { mode: PHOTO_PACK_MODE, pack } }),
  repeat: (uuid: string, idempotencyKey?: string) =>
    api(routes.generations.repeat, { params: { uuid }, headers: idempotencyHeaders(idempotencyKey) }),
  /** My result copied into my uploads by the server, to start a new generation from it. */
  useResult: (uuid: string) => api(routes.generations.useResult, { params: { uuid } }),
  events: (uuid: string, signal: AbortSignal) =>
    openEventStream(routes.generations.events, { params: { uuid }, signal }),
  writePrompt: (text: string, mode: TGenerationMode) =>
    api(routes.promptHelper.write, { body: { text, mode } }),
  /** One of my uploads (a failed generation's source photo, to try again with it). */
  getUpload: (uuid: string) => api(routes.uploads.get, { params: { uuid } }),
  upload: (file: Blob, name: string, options: { onProgress?(f: number): void; signal?: AbortSignal }) => {
    const form = new FormData();
    form.append('file', file, name);
    return uploadForm(routes.uploads.create, { body: form }, options);
  },
};
