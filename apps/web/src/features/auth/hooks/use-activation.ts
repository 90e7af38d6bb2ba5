import { useEffect, useState } from 'react';
import { ApiError } from '../../../lib/api-error';
import { startSession } from '../../../lib/session';
import { authApi } from '../api/auth.api';

export type ActivationState =
  { step: 'working' } | { step: 'done' } | { step: 'stale' } | { step: 'failed'; error: unknown };

const attempts = new Map<string, Promise<void>>();

/**
 * The activation email's link at work: activates the account and signs the person in with the
 * session the server opens ('done'); a link used before says 'stale'. One request per link, even
 * when React mounts the page twice in development.
 */
export function useActivation(uid: string, token: string): ActivationState {
  const [state, setState] = useState<ActivationState>({ step: 'working' });
  useEffect(() => {
    let alive = true;
    const key = `${uid}/${token}`;
    const attempt =
      attempts.get(key) ??
      authApi.activate(uid, token).then(async (tokens) => {
        await startSession(tokens);
      });
    attempts.set(key, attempt);
    attempt
      .then(() => {
        if (alive) setState({ step: 'done' });
      })
      .catch((error: unknown) => {
        if (!alive) return;
        if (error instanceof ApiError && error.code === 'users.activation_stale') setState({ step: 'stale' });
        else setState({ step: 'failed', error });
      });
    return () => {
      alive = false;
    };
  }, [uid, token]);
  return state;
}
