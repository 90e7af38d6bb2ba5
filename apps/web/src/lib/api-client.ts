import { ACCESS_REFRESH_THRESHOLD_SECONDS, type TTokenPair } from '@mirra/contracts';
import { ApiError } from './api-error';
import { secondsUntilExpiry } from './jwt';
import { readStored, STORAGE_KEYS, writeStored, type StorageKey } from './storage';

export const REFRESH_PATH = '/api/auth/refresh/';

/**
 * The Authorization rule: Telegram init data first (`TG <initData>`), else a stored
 * access token (`Bearer …`), else nothing.
 */
export function authorizationHeader(tgData: string | null, access: string | null): string | null {
  if (tgData) return `TG ${tgData}`;
  if (access) return `Bearer ${access}`;
  return null;
}

/** Whether the access token must be refreshed before a request (it expires in under 60 s). */
export function shouldRefreshAccess(access: string | null, nowMs: number): boolean {
  if (!access) return true;
  return secondsUntilExpiry(access, nowMs) < ACCESS_REFRESH_THRESHOLD_SECONDS;
}

export interface KeyValueStore {
  get(key: StorageKey): string | null;
  set(key: StorageKey, value: string | null): void;
}

export const localStore: KeyValueStore = { get: readStored, set: writeStored };

export interface ApiClientOptions {
  fetch?: typeof fetch;
  store?: KeyValueStore;
  now?: () => number;
  /** Called after the client dropped the session (bad token or failed refresh). */
  onLoggedOut?: (reason: 'decode' | 'refresh') => void;
}

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | undefined | null>;
  signal?: AbortSignal;
  /** Extra headers of this call (e.g. Idempotency-Key). */
  headers?: Record<string, string>;
}

/**
 * Logged in: a refresh token is stored, or Telegram init data is present.
 */
export function hasSession(store: KeyValueStore = localStore): boolean {
  return Boolean(store.get(STORAGE_KEYS.refresh) || store.get(STORAGE_KEYS.tgData));
}

/** A response body as JSON when it is JSON, with its raw text for 'Invalid error: …'. */
export async function readResponseBody(response: Response): Promise<{ json: unknown; text: string }> {
  const text = await response.text();
  if (!text) return { json: null, text };
  try {
    return { json: JSON.parse(text) as unknown, text };
  } catch {
    return { json: null, text };
  }
}

export function createApiClient(options: ApiClientOptions = {}) {
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const store = options.store ?? localStore;
  const now = options.now ?? (() => Date.now());
  let refreshing: Promise<void> | null = null;

  function clearTokens() {
    store.set(STORAGE_KEYS.access, null);
    store.set(STORAGE_KEYS.refresh, null);
  }

  function logout(reason: 'decode' | 'refresh') {
    clearTokens();
    options.onLoggedOut?.(reason);
  }

  function baseHeaders(): Record<string, string> {
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      Accept: 'application/json',
    };
    const language = store.get(STORAGE_KEYS.language);
    if (language) headers['Accept-Language'] = language;
    return headers;
  }

  /** Posts the refresh token once; concurrent callers share the same attempt. */
  function refreshTokens(): Promise<void> {
    if (refreshing) return refreshing;
    const refresh = store.get(STORAGE_KEYS.refresh);
    if (!refresh) return Promise.resolve();
    refreshing = (async () => {
      // No answer at all (offline) throws here: the session is kept and the caller's request fails.
      const response = await doFetch(REFRESH_PATH, {
        method: 'POST',
        credentials: 'include',
        headers: baseHeaders(),
        body: JSON.stringify({ refresh }),
      });
      const { json, text } = await readResponseBody(response);
      if (!response.ok) {
        if (response.status < 500) logout('refresh');
        throw new ApiError(response.status, json, text);
      }
      const pair = json as TTokenPair;
      store.set(STORAGE_KEYS.refresh, pair.refresh);
      store.set(STORAGE_KEYS.access, pair.access);
    })().finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  /** Before every request but the refresh call: refresh an access token that is about to expire. */
  async function ensureFreshAccess(): Promise<void> {
    if (store.get(STORAGE_KEYS.tgData)) return;
    const refresh = store.get(STORAGE_KEYS.refresh);
    const access = store.get(STORAGE_KEYS.access);
    if (!refresh && !access) return;
    let stale: boolean;
    try {
      stale = shouldRefreshAccess(access, now());
    } catch (error) {
      console.warn('Dropping the session: the access token cannot be read.', error);
      logout('decode');
      return;
    }
    if (!stale) return;
    if (!refresh) {
      store.set(STORAGE_KEYS.access, null);
      return;
    }
    await refreshTokens();
  }

  function buildUrl(path: string, query?: RequestOptions['query']): string {
    if (!query) return path;
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined && value !== null) params.append(key, String(value));
    }
    const qs = params.toString();
    return qs ? `${path}${path.includes('?') ? '&' : '?'}${qs}` : path;
  }

  /**
   * The headers of an authenticated call, after refreshing an access token about to expire (also
   * used by `api-transfer.ts` for uploads and event streams).
   */
  async function authorizedHeaders(path: string): Promise<Record<string, string>> {
    if (path !== REFRESH_PATH) await ensureFreshAccess();
    const headers = baseHeaders();
    const authorization = authorizationHeader(store.get(STORAGE_KEYS.tgData), store.get(STORAGE_KEYS.access));
    if (authorization) headers.Authorization = authorization;
    return headers;
  }

  async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    const headers = { ...(await authorizedHeaders(path)), ...opts.headers };
    const response = await doFetch(buildUrl(path, opts.query), {
      method,
      credentials: 'include',
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: opts.signal,
    });
    const { json, text } = await readResponseBody(response);
    if (!response.ok) throw new ApiError(response.status, json, text);
    return json as T;
  }

  return {
    request,
    get: <T>(path: string, opts?: RequestOptions) => request<T>('GET', path, opts),
    post: <T>(path: string, body?: unknown, opts?: RequestOptions) =>
      request<T>('POST', path, { ...opts, body }),
    put: <T>(path: string, body?: unknown, opts?: RequestOptions) =>
      request<T>('PUT', path, { ...opts, body }),
    patch: <T>(path: string, body?: unknown, opts?: RequestOptions) =>
      request<T>('PATCH', path, { ...opts, body }),
    delete: <T>(path: string, opts?: RequestOptions) => request<T>('DELETE', path, opts),
    authorizedHeaders,
    fetch: doFetch,
    refreshTokens,
    ensureFreshAccess,
    /** Stores a fresh pair after a sign-in. */
    saveTokens(pair: { refresh: string; access?: string | null }) {
      store.set(STORAGE_KEYS.refresh, pair.refresh);
      store.set(STORAGE_KEYS.access, pair.access ?? null);
    },
    clearTokens,
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

type LoggedOutListener = (reason: 'decode' | 'refresh') => void;
const loggedOutListeners = new Set<LoggedOutListener>();

/** Lets the session store react when the client drops the session on its own. */
export function onClientLoggedOut(listener: LoggedOutListener): () => void {
  loggedOutListeners.add(listener);
  return () => loggedOutListeners.delete(listener);
}

/** The app's one client. */
export const api = createApiClient({
  onLoggedOut: (reason) => loggedOutListeners.forEach((listener) => listener(reason)),
});
