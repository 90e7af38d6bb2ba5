import { api } from '../../../lib/api-client';
import { openEventStream, uploadForm } from '../../../lib/api-transfer';
import type {
  TCreateGenerationBody,
  TGeneration,
  TGenerationList,
  TGenerationMode,
  TPrice,
  TPromptHelperResult,
  TStyle,
  TUpload,
} from '../../../lib/api-types';

export const generationKeys = {
  all: ['generations'] as const,
  list: () => ['generations', 'list'] as const,
  one: (uuid: string) => ['generations', 'one', uuid] as const,
  /** Every price line: each shows the balance too, so any change of balance refreshes them. */
  prices: () => ['generations', 'price'] as const,
  price: (mode: TGenerationMode, style: TStyle | null, signedIn: boolean, duration: number | null = null) =>
    [...generationKeys.prices(), mode, style, signedIn, duration] as const,
};

const idempotencyHeaders = (key: string | undefined) =>
  key ? { headers: { 'Idempotency-Key': key } } : undefined;

export const generationsApi = {
  /** Video is priced per second: its `duration` goes along. */
  price: (mode: TGenerationMode, style: TStyle | null, duration: number | null = null) =>
    api.get<TPrice>('/api/generations/price/', { query: { mode, style, duration } }),
  /** `idempotencyKey` makes a resend after a lost answer return the same generation, charged once. */
  create: (body: TCreateGenerationBody, idempotencyKey?: string) =>
    api.post<TGeneration>('/api/generations/', body, idempotencyHeaders(idempotencyKey)),
  get: (uuid: string) => api.get<TGeneration>(`/api/generations/${uuid}/`),
  list: (cursor: string | null) =>
    api.get<TGenerationList>('/api/generations/', { query: { cursor, limit: 24 } }),
  repeat: (uuid: string, idempotencyKey?: string) =>
    api.post<TGeneration>(`/api/generations/${uuid}/repeat/`, undefined, idempotencyHeaders(idempotencyKey)),
  events: (uuid: string, signal: AbortSignal) =>
    openEventStream(`/api/generations/${uuid}/events/`, { signal }),
  writePrompt: (text: string, mode: TGenerationMode) =>
    api.post<TPromptHelperResult>('/api/prompt-helper/', { text, mode }),
  /** One of my uploads (a failed generation's source photo, to try again with it). */
  getUpload: (uuid: string) => api.get<TUpload>(`/api/uploads/${uuid}/`),
  upload: (file: Blob, name: string, options: { onProgress?(f: number): void; signal?: AbortSignal }) => {
    const form = new FormData();
    form.append('file', file, name);
    return uploadForm<TUpload>('/api/uploads/', form, options);
  },
};
