import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { creditKeys, generationKeys } from '../api/generations.api';
import { pauseEndsAt, readChargeRefusal, type ReceivedRefusal } from '../charge-errors';
import { secondsLeft } from '../countdown';
import { useCountdown } from './use-countdown';

/**
 * Runs a paid action (create, repeat) with the two refusals that need the user: not enough credits
 * opens the credit balance dialog; the free tier's pause opens the limit dialog, whose "skip" waits
 * out the pause with a visible countdown and then runs the action again by itself. Any other
 * failure is handed to `onError`. Nothing the user typed is touched.
 */
export function useChargedAction<T>(options: {
  action: () => Promise<T>;
  onSuccess(value: T): void;
  onError(error: unknown): void;
  /**
   * Whether the form may be sent as it stands now (filled in, no photo still uploading). The
   * automatic retry after "skip" asks it first: the user may have changed the form meanwhile.
   */
  canRun?: () => boolean;
}) {
  const queryClient = useQueryClient();
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });
  const [pending, setPending] = useState(false);
  const [refusal, setRefusal] = useState<ReceivedRefusal | null>(null);
  const runRef = useRef<() => Promise<void>>(() => Promise.resolve());
  // The pause is over: submit by itself, as promised by "skip", if the form can still be sent;
  // otherwise the user finishes it and presses the button.
  const { left, start, stop } = useCountdown(() => {
    if (latest.current.canRun?.() ?? true) void runRef.current();
  });

  const run = useCallback(async () => {
    stop();
    setRefusal(null);
    setPending(true);
    try {
      const value = await latest.current.action();
      void queryClient.invalidateQueries({ queryKey: generationKeys.list() });
      void queryClient.invalidateQueries({ queryKey: creditKeys.all });
      void queryClient.invalidateQueries({ queryKey: generationKeys.prices() });
      latest.current.onSuccess(value);
    } catch (error) {
      const refused = readChargeRefusal(error);
      if (refused) {
        setRefusal({ ...refused, at: Date.now() });
        if (refused.kind === 'credits') void queryClient.invalidateQueries({ queryKey: creditKeys.all });
      } else {
        // A lost answer may still have created (and charged) it: show the list and balance as
        // they are, so a second press is a choice made knowingly.
        void queryClient.invalidateQueries({ queryKey: generationKeys.list() });
        void queryClient.invalidateQueries({ queryKey: creditKeys.all });
        latest.current.onError(error);
      }
    } finally {
      setPending(false);
    }
  }, [stop, queryClient]);
  useEffect(() => {
    runRef.current = run;
  });

  return {
    run,
    pending,
    refusal,
    closeRefusal: useCallback(() => setRefusal(null), []),
    /** Skip in the limit dialog: wait out the pause, then run again. */
    skipWait: useCallback(() => {
      if (refusal?.kind !== 'limit') return;
      start(Math.max(1, secondsLeft(pauseEndsAt(refusal), Date.now())));
      setRefusal(null);
    }, [refusal, start]),
    /** Seconds until the automatic retry, or null when none is planned. */
    waitLeft: left,
    cancelWait: stop,
  };
}
