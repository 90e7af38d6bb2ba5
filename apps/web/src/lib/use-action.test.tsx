import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useAction } from './use-action';

afterEach(cleanup);

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('useAction', () => {
  it('is pending with its variables until the request ends, then calls onSuccess', async () => {
    const request = deferred<string>();
    const onStart = vi.fn();
    const onSuccess = vi.fn();
    const { result } = renderHook(() => useAction({ run: () => request.promise, onStart, onSuccess }));
    act(() => result.current.mutate(7));
    expect(result.current).toMatchObject({ isPending: true, variables: 7 });
    expect(onStart).toHaveBeenCalledWith(7);
    await act(async () => request.resolve('done'));
    expect(result.current).toMatchObject({ isPending: false, isSuccess: true });
    expect(onSuccess).toHaveBeenCalledWith('done', 7);
  });

  it('hands a failure and what onStart returned to onError (to undo an optimistic change)', async () => {
    const request = deferred<string>();
    const onError = vi.fn();
    const { result } = renderHook(() =>
      useAction({ run: () => request.promise, onStart: (n: number) => ({ before: n - 1 }), onError }),
    );
    act(() => result.current.mutate(3));
    const failure = new Error('offline');
    await act(async () => request.reject(failure));
    expect(result.current).toMatchObject({ isPending: false, isSuccess: false });
    expect(onError).toHaveBeenCalledWith(failure, 3, { before: 2 });
  });

  it('one at a time: a second call before the first ends, even before a re-render, sends nothing', async () => {
    const first = deferred<string>();
    const run = vi.fn(() => first.promise);
    const { result } = renderHook(() => useAction({ run, oneAtATime: true }));
    const { mutate } = result.current;
    act(() => {
      mutate(1);
      mutate(2);
    });
    expect(run).toHaveBeenCalledTimes(1);
    await act(async () => first.resolve('done'));
    run.mockReturnValue(Promise.resolve('again'));
    await act(async () => result.current.mutate(3));
    expect(run.mock.calls).toEqual([[1], [3]]);
  });
});
