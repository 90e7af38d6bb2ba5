import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GenerationStatus } from '@mirra/contracts';
import type { TGeneration } from '../../../lib/api-types';
import { generationsApi } from '../api/generations.api';
import { useLiveGeneration } from './use-live-generation';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('a generation followed live', () => {
  it('once it ends (here refunded), the list, the balance and every price line with its balance are read again', async () => {
    const failed = {
      uuid: '00000000-0000-4000-8000-000000000001',
      status: GenerationStatus.FAILED,
      progress: 40,
      refunded: true,
    } as TGeneration;
    vi.spyOn(generationsApi, 'get').mockResolvedValue(failed);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    renderHook(() => useLiveGeneration(failed.uuid), { wrapper });
    await waitFor(() => expect(invalidate).toHaveBeenCalledTimes(3));
    const keys = invalidate.mock.calls.map(([filters]) => JSON.stringify(filters?.queryKey));
    expect(keys.sort()).toEqual(
      [['generations', 'list'], ['credits'], ['generations', 'price']]
        .map((key) => JSON.stringify(key))
        .sort(),
    );
  });
});
