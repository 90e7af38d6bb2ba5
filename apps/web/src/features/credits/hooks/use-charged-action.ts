import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { creditKeys, refreshBalance } from '../api/credits.api';
import { pauseEndsAt, readChargeRefusal, type ReceivedRefusal } from '../charge-errors';
import { secondsLeft } from '../../../lib/countdown';
import { ApiError } from '../../../lib/api-error';
import { useCountdown } from '../../../lib/use-countdown';

/** A random request key (crypto.randomUUID needs a secure context; getRandomValues does not). */
function newRequestKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Runs a paid action (create, repeat) with the two refusals that need the user: not enough credits
 * opens the credit balance dialog; the free tier's pause opens the limit dialog, whose "skip" waits
 * out the pause with a visible countdown and then runs the action again by itself. Any other
 * failure is handed to `onError`. Nothing the user typed is touched.
 */
export function useChargedAction<T>(options: {
  /**
   * The request. `idempotencyKey` names this attempt: it stays the same for a resend after a
   * lost answer (no second charge), and is new once the last one got an answer or `inputs` changed.
   */
  action: (idempotencyKey: string) => Promise<T>;
  /** What the request would send (e.g. its body as JSON): a change makes it a new attempt. */
  inputs?: string;
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

  const attempt = useRef<{ key: string; inputs: string | undefined } | null>(null);

  const run = useCallback(async () => {
    stop();
    setRefusal(null);
    setPending(true);
    const inputs = latest.current.inputs;
    if (!attempt.current || attempt.current.inputs !== inputs)
      attempt.current = { key: newRequestKey(), inputs };
    try {
      const value = await latest.current.action(attempt.current.key);
      attempt.current = null;
      refreshBalance(queryClient);
      latest.current.onSuccess(value);
    } catch (error) {
      // An answer means nothing was made: the next press is a new attempt. Without one (network,
      // 5xx) it may have been made, and a resend with the same key returns it instead.
      if (error instanceof ApiError && error.status < 500) attempt.current = null;
      const refused = readChargeRefusal(error);
      if (refused) {
        setRefusal({ ...refused, at: Date.now() });
        if (refused.kind === 'credits') void queryClient.invalidateQueries({ queryKey: creditKeys.all });
      } else {
        // A lost answer may still have created (and charged) it: show the list and balance as
        // they are, so a second press is a choice made knowingly.
        refreshBalance(queryClient);
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
