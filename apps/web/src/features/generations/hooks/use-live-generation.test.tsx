import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GenerationStatus } from '@mirra/contracts';
import type { TGeneration } from '../../../lib/api-types';
import { creditKeys, MOVES_WITH_BALANCE } from '../../credits/api/credits.api';
import { generationKeys, generationsApi } from '../api/generations.api';
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
    // What the screens keep: the list and a price line (both marked as moving with the balance),
    // the balance itself, and a query that has nothing to do with it.
    const price = generationKeys.price('simple', null, true);
    await client.fetchQuery({ queryKey: generationKeys.list(), queryFn: () => [], meta: MOVES_WITH_BALANCE });
    await client.fetchQuery({ queryKey: price, queryFn: () => ({}), meta: MOVES_WITH_BALANCE });
    await client.fetchQuery({ queryKey: creditKeys.balance(), queryFn: () => ({ balance: 3 }) });
    await client.fetchQuery({ queryKey: ['posts', 'feed'], queryFn: () => [] });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    renderHook(() => useLiveGeneration(failed.uuid), { wrapper });
    await waitFor(() => expect(client.getQueryState(creditKeys.balance())?.isInvalidated).toBe(true));
    expect(client.getQueryState(generationKeys.list())?.isInvalidated).toBe(true);
    expect(client.getQueryState(price)?.isInvalidated).toBe(true);
    expect(client.getQueryState(['posts', 'feed'])?.isInvalidated).toBe(false);
  });
});
