import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { i18n as I18n } from 'i18next';
import { ApiError } from '../../../lib/api-error';
import type { TModel, TModelPhotoVerdict } from '../../../lib/api-types';
import { createTestI18n } from '../../../test/i18n';
import { modelsApi, type PhotoFile } from '../api/models.api';
import { useModelPhotoUploads } from './use-model-photo-uploads';

const MODEL = '00000000-0000-4000-8000-0000000000aa';
const photoUuid = (name: string) =>
  `00000000-0000-4000-8000-${Buffer.from(name).toString('hex').padStart(12, '0').slice(-12)}`;

let i18n: I18n;
beforeAll(async () => {
  i18n = await createTestI18n('en');
});
beforeEach(() => {
  URL.createObjectURL = vi.fn((blob: Blob) => `blob:${(blob as File).name}`);
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => vi.restoreAllMocks());

function setup() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}>{children}</I18nextProvider>
    </QueryClientProvider>
  );
  const ensureModel = vi.fn(() => Promise.resolve(MODEL));
  const hook = renderHook(() => useModelPhotoUploads({ ensureModel }), { wrapper });
  return { hook, ensureModel };
}

const jpeg = (name: string) => new File([new Uint8Array(1000)], name, { type: 'image/jpeg' });
const stored = new Set<string>();
const verdictOf = (file: PhotoFile): TModelPhotoVerdict => ({
  uuid: photoUuid(file.name),
  filename: file.name,
  ok: !file.name.startsWith('cup'),
  problems: file.name.startsWith('cup') ? ['face.none'] : [],
  tips: [],
  pose: 'front',
  thumbnail_url: `/t/${file.name}`,
});

describe('sending a model’s photos', () => {
  it('sends small batches one after another, each file with its progress, and hands stored photos to the model', async () => {
    const batches: string[][] = [];
    vi.spyOn(modelsApi, 'uploadPhotos').mockImplementation(async (_uuid, files, options) => {
      batches.push(files.map((file) => file.name));
      options?.onProgress?.(0.5);
      for (const file of files) stored.add(photoUuid(file.name));
      return { photos: files.map(verdictOf), reference_count: stored.size, min_photos: 15 };
    });
    vi.spyOn(modelsApi, 'get').mockImplementation(
      async () => ({ uuid: MODEL, photos: [...stored].map((uuid) => ({ uuid })) }) as unknown as TModel,
    );
    const { hook, ensureModel } = setup();
    const names = ['a.jpg', 'b.jpg', 'c.jpg', 'd.jpg', 'cup.jpg'];
    act(() =>
      hook.result.current.add([
        ...names.map(jpeg),
        new File(['%PDF'], 'notes.pdf', { type: 'application/pdf' }),
      ]),
    );

    // The PDF is refused at once; everything else is queued behind its own bar.
    expect(hook.result.current.items.map((item) => [item.name, item.status])).toEqual([
      ['notes.pdf', 'judged'],
      ['a.jpg', 'queued'],
      ['b.jpg', 'queued'],
      ['c.jpg', 'queued'],
      ['d.jpg', 'queued'],
      ['cup.jpg', 'queued'],
    ]);
    // Every photo the server stored (good or not) moves to the model's own list.
    await waitFor(() => expect(hook.result.current.items.map((item) => item.name)).toEqual(['notes.pdf']));
    expect(batches).toEqual([
      ['a.jpg', 'b.jpg', 'c.jpg'],
      ['d.jpg', 'cup.jpg'],
    ]);
    expect(ensureModel).toHaveBeenCalledTimes(2);
    expect(hook.result.current.items[0]!.verdict?.problems).toEqual(['file.unsupported']);
  });

  it('keeps a failed batch for a retry, and stops sending when the model cannot take more', async () => {
    vi.spyOn(modelsApi, 'get').mockResolvedValue({ uuid: MODEL, photos: [] } as unknown as TModel);
    const upload = vi
      .spyOn(modelsApi, 'uploadPhotos')
      .mockRejectedValueOnce(new TypeError('Network request failed'))
      .mockRejectedValueOnce(new ApiError(400, { detail: 'Too many', code: 'models.too_many_photos' }));
    const { hook } = setup();
    act(() => hook.result.current.add(['a.jpg', 'b.jpg', 'c.jpg', 'd.jpg', 'e.jpg'].map(jpeg)));
    await waitFor(() =>
      expect(hook.result.current.items.every((item) => item.status === 'failed')).toBe(true),
    );
    expect(upload).toHaveBeenCalledTimes(2);
    const full = i18n.t('errors.models.too_many_photos');
    expect(hook.result.current.items.map((item) => item.error)).toEqual([
      i18n.t('errors.network'),
      i18n.t('errors.network'),
      i18n.t('errors.network'),
      full,
      full,
    ]);

    // Trying one again sends just that one.
    upload.mockImplementationOnce(async (_uuid, files) => ({
      photos: files.map(verdictOf),
      reference_count: 1,
      min_photos: 15,
    }));
    act(() => hook.result.current.retry(hook.result.current.items[0]!.id));
    await waitFor(() => expect(hook.result.current.items[0]!.status).toBe('judged'));
    expect(upload.mock.calls[2]![1].map((file) => file.name)).toEqual(['a.jpg']);
    expect(hook.result.current.items.slice(1).every((item) => item.status === 'failed')).toBe(true);
  });
});
