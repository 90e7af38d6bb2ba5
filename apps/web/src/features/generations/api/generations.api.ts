import { api } from '../../../lib/api-client';
import { ApiError } from '../../../lib/api-error';
import { openEventStream, uploadForm } from '../../../lib/api-transfer';
import type {
  TCreateGenerationBody,
  TCreditBalance,
  TCreditHistory,
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
  price: (mode: TGenerationMode, style: TStyle | null, signedIn: boolean) =>
    ['generations', 'price', mode, style, signedIn] as const,
  models: () => ['models', 'mine'] as const,
};

export const creditKeys = {
  all: ['credits'] as const,
  balance: () => ['credits', 'balance'] as const,
  history: () => ['credits', 'history'] as const,
};

/** A digital model as the picker shows it; the models issue brings its contract. */
export interface ModelOption {
  uuid: string;
  name: string;
  /** How many reference photos the model was built from. */
  references: number;
}

export const generationsApi = {
  price: (mode: TGenerationMode, style: TStyle | null) =>
    api.get<TPrice>('/api/generations/price/', { query: { mode, style } }),
  create: (body: TCreateGenerationBody) => api.post<TGeneration>('/api/generations/', body),
  get: (uuid: string) => api.get<TGeneration>(`/api/generations/${uuid}/`),
  list: (cursor: string | null) =>
    api.get<TGenerationList>('/api/generations/', { query: { cursor, limit: 24 } }),
  repeat: (uuid: string) => api.post<TGeneration>(`/api/generations/${uuid}/repeat/`),
  events: (uuid: string, signal: AbortSignal) =>
    openEventStream(`/api/generations/${uuid}/events/`, { signal }),
  writePrompt: (text: string, mode: TGenerationMode) =>
    api.post<TPromptHelperResult>('/api/prompt-helper/', { text, mode }),
  upload: (file: Blob, name: string, options: { onProgress?(f: number): void; signal?: AbortSignal }) => {
    const form = new FormData();
    form.append('file', file, name);
    return uploadForm<TUpload>('/api/uploads/', form, options);
  },
  /**
   * My digital models. The endpoint arrives with the models issue: until then (404) the list is
   * empty and the picker offers the way to /upload/.
   */
  async models(): Promise<ModelOption[]> {
    try {
      const body = await api.get<unknown>('/api/models/');
      return readModelOptions(body);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return [];
      throw error;
    }
  },
};

/** Reads a models list leniently: `{results: [...]}` or a bare list, items without a uuid skipped. */
export function readModelOptions(body: unknown): ModelOption[] {
  const list = Array.isArray(body)
    ? body
    : body && typeof body === 'object' && Array.isArray((body as { results?: unknown }).results)
      ? (body as { results: unknown[] }).results
      : [];
  return list.flatMap((item) => {
    if (!item || typeof item !== 'object') return [];
    const record = item as Record<string, unknown>;
    if (typeof record.uuid !== 'string') return [];
    const count = [record.references, record.reference_count, record.images_count].find(
      (value): value is number => typeof value === 'number',
    );
    return [
      {
        uuid: record.uuid,
        name: typeof record.name === 'string' ? record.name : '',
        references: count ?? 0,
      },
    ];
  });
}

export const creditsApi = {
  balance: () => api.get<TCreditBalance>('/api/credits/'),
  history: (cursor: string | null) =>
    api.get<TCreditHistory>('/api/credits/history/', { query: { cursor, limit: 20 } }),
};
