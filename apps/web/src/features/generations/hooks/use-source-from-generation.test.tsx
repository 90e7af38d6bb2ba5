import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GenerationStatus } from '@mirra/contracts';
import type { TGeneration, TUpload } from '../../../lib/api-types';
import { generationsApi } from '../api/generations.api';
import { useSourceFromGeneration } from './use-source-from-generation';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const wrapper = ({ children }: { children: ReactNode }) => (
  <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
    {children}
  </QueryClientProvider>
);

const STORE = 'https://bucket.s3.example.com';
const generation = {
  uuid: '0b9f6a52-6d0e-4d1c-9b0a-6f3c2c1d7e11',
  status: GenerationStatus.COMPLETED,
  result: {
    url: `${STORE}/results/a/b/original.png?X-Amz-Signature=x`,
    content_type: 'image/png',
    variants: [{ url: `${STORE}/results/a/b/w2048.webp?X-Amz-Signature=y`, width: 2048, height: 1536 }],
  },
} as unknown as TGeneration;

describe('a result as the source photo', () => {
  it('is copied into my uploads by the server; the browser never fetches the file from the store', async () => {
    const copy = { uuid: 'u1', url: `${STORE}/uploads/u1.png`, width: 2048, height: 1536 } as TUpload;
    vi.spyOn(generationsApi, 'get').mockResolvedValue(generation);
    const useResult = vi.spyOn(generationsApi, 'useResult').mockResolvedValue(copy);
    const upload = vi.spyOn(generationsApi, 'upload');
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const onUploaded = vi.fn();

    const { result } = renderHook(
      () => useSourceFromGeneration({ uuid: generation.uuid, enabled: true, onUploaded }),
      { wrapper },
    );
    await waitFor(() => expect(onUploaded).toHaveBeenCalledWith(copy));
    expect(useResult).toHaveBeenCalledWith(generation.uuid);
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(upload).not.toHaveBeenCalled();
    await waitFor(() => expect(result.current).toMatchObject({ isFetching: false, isUnavailable: false }));
  });

  it('says it is unavailable when the copy is refused, so a photo can be chosen instead', async () => {
    vi.spyOn(generationsApi, 'get').mockResolvedValue(generation);
    vi.spyOn(generationsApi, 'useResult').mockRejectedValue(new Error('gone'));
    const onUploaded = vi.fn();
    const { result } = renderHook(
      () => useSourceFromGeneration({ uuid: generation.uuid, enabled: true, onUploaded }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.isUnavailable).toBe(true));
    expect(result.current.isFetching).toBe(false);
    expect(onUploaded).not.toHaveBeenCalled();
  });
});
