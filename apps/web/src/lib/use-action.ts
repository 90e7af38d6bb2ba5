import { useCallback, useEffect, useRef, useState } from 'react';

interface ActionOptions<TVariables, TResult, TContext> {
  run(variables: TVariables): Promise<TResult>;
  /** Before the request: an optimistic change; what it returns comes back to `onError`. */
  onStart?(variables: TVariables): TContext;
  onSuccess?(result: TResult, variables: TVariables): void;
  onError?(error: unknown, variables: TVariables, context: TContext | undefined): void;
  /**
   * A second `mutate` while one is on its way does nothing. The button's `disabled` alone is not
   * enough: a second tap can land before the re-render that disables it.
   */
  oneAtATime?: boolean;
}

/**
 * A request the user starts (publish, save, subscribe, report), with its pending state and the
 * variables it was started with — the part of TanStack's `useMutation` these screens use, under
 * the same names. `useMutation` itself would do, but its observer pulls TanStack's Mutation class
 * out of the first page's chunk into a chunk of its own (+0.8 KB gzipped of a 150 KB budget that
 * is nearly spent), so screens use this instead.
 */
export function useAction<TVariables, TResult, TContext = undefined>(
  options: ActionOptions<TVariables, TResult, TContext>,
) {
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const [state, setState] = useState<{
    status: 'idle' | 'pending' | 'success' | 'error';
    variables: TVariables | undefined;
  }>({ status: 'idle', variables: undefined });

  const inFlight = useRef(false);
  const mutate = useCallback((variables: TVariables) => {
    const { run, onStart, oneAtATime } = latest.current;
    if (oneAtATime && inFlight.current) return;
    inFlight.current = true;
    setState({ status: 'pending', variables });
    const context = onStart?.(variables);
    run(variables).then(
      (result) => {
        inFlight.current = false;
        if (mounted.current) setState({ status: 'success', variables });
        latest.current.onSuccess?.(result, variables);
      },
      (error: unknown) => {
        inFlight.current = false;
        if (mounted.current) setState({ status: 'error', variables });
        latest.current.onError?.(error, variables, context);
      },
    );
  }, []);

  return {
    mutate,
    isPending: state.status === 'pending',
    isSuccess: state.status === 'success',
    variables: state.variables,
  };
}
