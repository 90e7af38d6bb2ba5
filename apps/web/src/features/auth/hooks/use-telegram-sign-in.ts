import { useCallback, useEffect, useRef, useState } from 'react';
import { TELEGRAM_POLL_INTERVAL_MS } from '@mirra/contracts';
import { ApiError } from '../../../lib/api-error';
import { authApi } from '../api/auth.api';
import { useFinishSignIn } from './use-finish-sign-in';

export type TelegramSignInState =
  | { step: 'idle' }
  | { step: 'requesting' }
  | { step: 'waiting'; link: string }
  | { step: 'expired' }
  | { step: 'failed'; error: unknown };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Messenger sign-in: ask for a key, open its link in a new tab, poll every second for
 * the token, store it and go home. Polling stops when the view closes (unmount) or on reset.
 */
export function useTelegramSignIn() {
  const finish = useFinishSignIn();
  const [state, setState] = useState<TelegramSignInState>({ step: 'idle' });
  // Each attempt has a number; a poll loop ends as soon as it is no longer the current one.
  const attempt = useRef(0);

  useEffect(() => {
    return () => {
      attempt.current += 1;
    };
  }, []);

  const start = useCallback(async () => {
    const mine = ++attempt.current;
    const isCurrent = () => attempt.current === mine;
    // Opened synchronously inside the click, so pop-up blockers allow it; pointed at the link later.
    const tab = window.open('', '_blank');
    let pointed = false;
    setState({ step: 'requesting' });
    try {
      const key = await authApi.createTelegramAuthKey();
      if (!isCurrent()) {
        tab?.close();
        return;
      }
      if (tab) {
        tab.opener = null;
        tab.location.href = key.link;
        pointed = true;
      }
      setState({ step: 'waiting', link: key.link });
      while (isCurrent()) {
        await sleep(TELEGRAM_POLL_INTERVAL_MS);
        if (!isCurrent()) return;
        try {
          const result = await authApi.getTelegramToken(key.uuid);
          if (!isCurrent()) return;
          if (result.status === 'confirmed' && result.token) {
            await finish({ refresh: result.token, access: result.access, created: result.created });
            return;
          }
        } catch (error) {
          if (!isCurrent()) return;
          if (error instanceof ApiError && (error.status === 410 || error.status === 404)) {
            setState({ step: 'expired' });
            return;
          }
          // A server hiccup or no connection: keep waiting; other client errors end the attempt.
          if (error instanceof ApiError && error.status < 500) throw error;
        }
      }
    } catch (error) {
      if (!pointed) tab?.close();
      if (isCurrent()) setState({ step: 'failed', error });
    }
  }, [finish]);

  const reset = useCallback(() => {
    attempt.current += 1;
    setState({ step: 'idle' });
  }, []);

  return { state, start, reset };
}
