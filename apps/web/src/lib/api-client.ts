import {
  ACCESS_REFRESH_THRESHOLD_SECONDS,
  routePath,
  routes,
  type PathParamNames,
  type RouteBody,
  type RouteParams,
  type RouteQuery,
  type RouteReply,
  type RouteSpec,
  type TTokenPair,
} from '@mirra/contracts';
import { ApiError } from './api-error';
import { secondsUntilExpiry } from './jwt';
import { readStored, STORAGE_KEYS, writeStored, type StorageKey } from './storage';

export const REFRESH_PATH = routes.auth.refresh.path;

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
  query?: Record<string, QueryValue | readonly QueryValue[]>;
  signal?: AbortSignal;
  /** Extra headers of this call (e.g. Idempotency-Key). */
  headers?: Record<string, string>;
}

type QueryValue = string | number | boolean | undefined | null;

type ParamsPart<R extends RouteSpec> = [PathParamNames<R['path']>] extends [never]
  ? { params?: never }
  : { params: RouteParams<R> };
type QueryPart<R extends RouteSpec> = R extends { readonly query: string }
  ? object extends RouteQuery<R>
    ? { query?: RouteQuery<R> }
    : { query: RouteQuery<R> }
  : { query?: never };
type BodyPart<R extends RouteSpec> = R extends
  { readonly body: string } | { readonly requestKind: 'multipart' }
  ? object extends RouteBody<R>
    ? { body?: RouteBody<R> }
    : { body: RouteBody<R> }
  : { body?: never };

/** What a call of route `R` sends: its path parameters, query and body, typed by its declaration. */
export type ApiCallOptions<R extends RouteSpec> = ParamsPart<R> &
  QueryPart<R> &
  BodyPart<R> & {
    signal?: AbortSignal;
    /** Extra headers of this call (e.g. Idempotency-Key). */
    headers?: Record<string, string>;
  };

/** Any call's options, as the client reads them. */
export interface PlainCallOptions {
  params?: Readonly<Record<string, string>>;
  query?: RequestOptions['query'];
  body?: unknown;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

/** The options argument, left out when nothing in it is required. */
export type ApiCallArgs<R extends RouteSpec> =
  object extends ApiCallOptions<R> ? [options?: ApiCallOptions<R>] : [options: ApiCallOptions<R>];

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
      for (const item of Array.isArray(value) ? value : [value]) {
        if (item !== undefined && item !== null) params.append(key, String(item));
      }
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
    const url = buildUrl(path, opts.query);
    if (method === 'GET' && !headers.Authorization && pageAnswers.has(url)) {
      const answer = pageAnswers.get(url);
      pageAnswers.delete(url);
      return answer as T;
    }
    const response = await doFetch(url, {
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

  /**
   * Calls a route declared in `@mirra/contracts`: its method and path come from the declaration,
   * the path parameters are filled in, the query serialised, and the answer typed.
   */
  function call<const R extends RouteSpec>(route: R, ...[options]: ApiCallArgs<R>): Promise<RouteReply<R>> {
    const { params, query, body, signal, headers } = (options ?? {}) as PlainCallOptions;
    return request<RouteReply<R>>(route.method, routePath(route, params), { query, body, signal, headers });
  }

  return {
    call,
    /** A call by method and path, for what has no declaration (tests of the client itself). */
    request,
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

/**
 * Answers a server-rendered page arrived with (the requests its first screen made, as a guest):
 * the same guest GET is answered from here once instead of asking again, so the app's first
 * render shows what the HTML shows.
 */
const pageAnswers = new Map<string, unknown>();

export function answerFromPage(answers: Record<string, unknown>): void {
  for (const [url, answer] of Object.entries(answers)) pageAnswers.set(url, answer);
}

type LoggedOutListener = (reason: 'decode' | 'refresh') => void;
const loggedOutListeners = new Set<LoggedOutListener>();

/** Lets the session store react when the client drops the session on its own. */
export function onClientLoggedOut(listener: LoggedOutListener): () => void {
  loggedOutListeners.add(listener);
  return () => loggedOutListeners.delete(listener);
}

const client = createApiClient({
  onLoggedOut: (reason) => loggedOutListeners.forEach((listener) => listener(reason)),
});

/**
 * The app's one client: `api(routes.posts.get, { params: { uuid } })` calls a declared route;
 * its methods keep the session (tokens, refresh) and serve uploads and event streams.
 */
export const api = Object.assign(client.call, client);
