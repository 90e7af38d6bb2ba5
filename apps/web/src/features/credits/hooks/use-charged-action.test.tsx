import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-error';
import { creditKeys, MOVES_WITH_BALANCE } from '../api/credits.api';
import { useChargedAction } from './use-charged-action';

const wrapper = ({ children }: { children: ReactNode }) => (
  <QueryClientProvider client={new QueryClient()}>{children}</QueryClientProvider>
);

const rateLimited = (wait: number) =>
  new ApiError(429, {
    detail: 'Wait',
    wait_seconds: wait,
    first: 3,
    seconds: 8,
    code: 'generations.rate_limited',
  });

afterEach(() => vi.useRealTimers());

describe('a paid action', () => {
  it('after the limit dialog’s skip, counts the pause down and runs again by itself', async () => {
    vi.useFakeTimers();
    const action = vi.fn().mockRejectedValueOnce(rateLimited(3)).mockResolvedValueOnce('created');
    const onSuccess = vi.fn();
    const { result } = renderHook(() => useChargedAction({ action, onSuccess, onError: vi.fn() }), {
      wrapper,
    });

    await act(() => result.current.run());
    expect(result.current.refusal).toMatchObject({ kind: 'limit', waitSeconds: 3 });
    act(() => result.current.skipWait());
    expect(result.current.refusal).toBeNull();
    expect(result.current.waitLeft).toBe(3);

    await act(() => vi.advanceTimersByTimeAsync(1_250));
    expect(result.current.waitLeft).toBe(2);
    expect(action).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(action).toHaveBeenCalledTimes(2);
    expect(onSuccess).toHaveBeenCalledWith('created');
    expect(result.current.waitLeft).toBeNull();
  });

  it('after skip, does not send by itself a form that can no longer be sent (a photo uploading, a field emptied)', async () => {
    vi.useFakeTimers();
    const action = vi.fn().mockRejectedValueOnce(rateLimited(2)).mockResolvedValue('created');
    let sendable = true;
    const { result } = renderHook(
      () => useChargedAction({ action, onSuccess: vi.fn(), onError: vi.fn(), canRun: () => sendable }),
      { wrapper },
    );
    await act(() => result.current.run());
    act(() => result.current.skipWait());
    sendable = false;
    await act(() => vi.advanceTimersByTimeAsync(3_000));
    expect(action).toHaveBeenCalledTimes(1);
    expect(result.current.waitLeft).toBeNull();
    // The button still sends it once the form is ready.
    sendable = true;
    await act(() => result.current.run());
    expect(action).toHaveBeenCalledTimes(2);
  });

  it('a lost answer refreshes my generations and balance before the error shows (it may have been created)', async () => {
    const queryClient = new QueryClient();
    // What the screens keep: my generations (marked as moving with the balance) and the balance.
    await queryClient.fetchQuery({
      queryKey: ['generations', 'list'],
      queryFn: () => [],
      meta: MOVES_WITH_BALANCE,
    });
    await queryClient.fetchQuery({ queryKey: creditKeys.balance(), queryFn: () => ({ balance: 3 }) });
    const onError = vi.fn();
    const { result } = renderHook(
      () =>
        useChargedAction({
          action: () => Promise.reject(new TypeError('offline')),
          onSuccess: vi.fn(),
          onError,
        }),
      {
        wrapper: ({ children }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>,
      },
    );
    await act(() => result.current.run());
    expect(onError).toHaveBeenCalledTimes(1);
    expect(queryClient.getQueryState(['generations', 'list'])?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(creditKeys.balance())?.isInvalidated).toBe(true);
  });

  it('a resend after a lost answer carries the same Idempotency-Key; an answer or changed inputs start a new one', async () => {
    const offline = new TypeError('Failed to fetch');
    const action = vi
      .fn<(key: string) => Promise<string>>()
      .mockRejectedValueOnce(offline)
      .mockResolvedValueOnce('made')
      .mockRejectedValueOnce(new ApiError(400, { prompt: ['Only in English'] }))
      .mockResolvedValue('made');
    const { result, rerender } = renderHook(
      ({ inputs }) => useChargedAction({ action, inputs, onSuccess: vi.fn(), onError: vi.fn() }),
      { wrapper, initialProps: { inputs: '{"prompt":"a cat"}' } },
    );
    const keys = () => action.mock.calls.map(([key]) => key);

    await act(() => result.current.run()); // lost
    await act(() => result.current.run()); // the resend: same key, answered
    expect(keys()[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys()[1]).toBe(keys()[0]);
    await act(() => result.current.run()); // a new attempt after an answer: refused (400)
    expect(keys()[2]).not.toBe(keys()[1]);
    await act(() => result.current.run()); // refused means nothing was made: new key again
    expect(keys()[3]).not.toBe(keys()[2]);

    action.mockRejectedValueOnce(offline);
    await act(() => result.current.run()); // lost again
    rerender({ inputs: '{"prompt":"a dog"}' });
    await act(() => result.current.run()); // but the form changed: a different request
    const all = keys();
    expect(all[5]).not.toBe(all[4]);
  });

  it('a cancelled wait never runs; not enough credits opens the credits dialog; other errors go to the form', async () => {
    vi.useFakeTimers();
    const onError = vi.fn();
    const offline = new TypeError('offline');
    const action = vi
      .fn()
      .mockRejectedValueOnce(rateLimited(2))
      .mockRejectedValueOnce(
        new ApiError(402, {
          detail: 'x',
          required: 3,
          balance: 1,
          difference: 2,
          code: 'credits.insufficient',
        }),
      )
      .mockRejectedValueOnce(offline);
    const { result } = renderHook(() => useChargedAction({ action, onSuccess: vi.fn(), onError }), {
      wrapper,
    });

    await act(() => result.current.run());
    act(() => result.current.skipWait());
    act(() => result.current.cancelWait());
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(action).toHaveBeenCalledTimes(1);

    await act(() => result.current.run());
    expect(result.current.refusal).toMatchObject({ kind: 'credits', difference: 2, balance: 1 });
    await act(() => result.current.run());
    expect(result.current.refusal).toBeNull();
    expect(onError).toHaveBeenCalledWith(offline);
  });
});
