import { create } from 'zustand';
import { routes, type TUser } from '@mirra/contracts';
import { setAnalyticsUserId } from './analytics';
import { api, hasSession, onClientLoggedOut } from './api-client';
import { ApiError } from './api-error';
import { STORAGE_KEYS, writeStored } from './storage';

export type SessionStatus = 'guest' | 'loading' | 'ready' | 'error';

interface SessionState {
  isLoggedIn: boolean;
  user: TUser | null;
  status: SessionStatus;
  setUser(user: TUser): void;
}

export const useSession = create<SessionState>()((set) => ({
  isLoggedIn: hasSession(),
  user: null,
  status: hasSession() ? 'loading' : 'guest',
  setUser: (user) => set({ user, status: 'ready', isLoggedIn: true }),
}));

function becomeGuest() {
  useSession.setState({ isLoggedIn: false, user: null, status: 'guest' });
  setAnalyticsUserId(null);
}

onClientLoggedOut(() => becomeGuest());

let loading: Promise<TUser | null> | null = null;

/**
 * Loads the signed-in user. A failure below 500 means the session is gone: the tokens are
 * cleared. A server error (500+) or no answer keeps them, so a hiccup never signs anyone out.
 */
export function loadUser(): Promise<TUser | null> {
  if (!hasSession()) {
    becomeGuest();
    return Promise.resolve(null);
  }
  if (loading) return loading;
  useSession.setState((state) => ({ isLoggedIn: true, status: state.user ? state.status : 'loading' }));
  loading = api(routes.users.me)
    .then((user) => {
      useSession.getState().setUser(user);
      setAnalyticsUserId(user.id);
      return user;
    })
    .catch((error: unknown) => {
      if (error instanceof ApiError && error.status < 500) {
        api.clearTokens();
        becomeGuest();
        return null;
      }
      useSession.setState({ status: 'error' });
      return null;
    })
    .finally(() => {
      loading = null;
    });
  return loading;
}

/** After any sign-in: store the pair and load the user. */
export async function startSession(tokens: {
  refresh: string;
  access?: string | null;
}): Promise<TUser | null> {
  api.saveTokens(tokens);
  useSession.setState({ isLoggedIn: true });
  return loadUser();
}

/** Signs out: tells the server (best effort), then forgets the tokens and the user. */
export async function signOut(): Promise<void> {
  try {
    if (hasSession()) await api(routes.auth.logout);
  } catch {
    // The local sign-out must happen even when the server cannot be reached.
  }
  api.clearTokens();
  becomeGuest();
}

/** Stores Telegram init data (`tgData`); the Authorization header then uses it first. */
export function setTelegramInitData(initData: string | null): void {
  writeStored(STORAGE_KEYS.tgData, initData);
  useSession.setState({ isLoggedIn: hasSession() });
}
