import { routes } from '@mirra/contracts';
import { describe, expect, it, vi } from 'vitest';
import { accessExpiringIn } from '../test/jwt';
import {
  answerFromPage,
  authorizationHeader,
  createApiClient,
  REFRESH_PATH,
  shouldRefreshAccess,
  type KeyValueStore,
} from './api-client';
import { ApiError } from './api-error';
import type { StorageKey } from './storage';

const NOW = 1_700_000_000_000;

function memoryStore(
  initial: Partial<Record<StorageKey, string>> = {},
): KeyValueStore & { data: Map<string, string> } {
  const data = new Map<string, string>(Object.entries(initial));
  return {
    data,
    get: (key) => data.get(key) ?? null,
    set: (key, value) => (value === null ? data.delete(key) : data.set(key, value)),
  };
}

function json(status: number, body: unknown): Response {
  return new Response(body === null ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

type Call = { url: string; init: RequestInit };

function fakeServer(handler: (call: Call) => Response | Promise<Response>) {
  const calls: Call[] = [];
  const fetch = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
    const call = { url: String(url), init: init ?? {} };
    calls.push(call);
    return handler(call);
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
}

const header = (call: Call, name: string) => (call.init.headers as Record<string, string>)[name];

describe('the Authorization rule', () => {
  it('sends Telegram init data first, then a Bearer token, else nothing', () => {
    expect(authorizationHeader('query_id=1&hash=x', 'abc')).toBe('TG query_id=1&hash=x');
    expect(authorizationHeader(null, 'abc')).toBe('Bearer abc');
    expect(authorizationHeader(null, null)).toBeNull();
  });

  it('is applied to requests, with Accept-Language from the stored language', async () => {
    const store = memoryStore({ access: accessExpiringIn(300, NOW), refresh: 'r1', django_language: 'kk' });
    const server = fakeServer(() => json(200, { ok: true }));
    const api = createApiClient({ fetch: server.fetch, store, now: () => NOW });
    await api.request('GET', '/api/users/me/');
    expect(header(server.calls[0]!, 'Authorization')).toBe(`Bearer ${store.get('access')}`);
    expect(header(server.calls[0]!, 'Accept-Language')).toBe('kk');
    expect(server.calls[0]!.init.credentials).toBe('include');

    store.set('tgData', 'user=%7B%7D&hash=h');
    await api.request('GET', '/api/users/me/');
    expect(header(server.calls[1]!, 'Authorization')).toBe('TG user=%7B%7D&hash=h');
  });

  it("adds a call's own headers (Idempotency-Key) to the usual ones", async () => {
    const store = memoryStore({ access: accessExpiringIn(300, NOW), refresh: 'r1' });
    const server = fakeServer(() => json(201, { uuid: 'g1' }));
    const api = createApiClient({ fetch: server.fetch, store, now: () => NOW });
    await api.call(routes.generations.create, {
      body: { mode: 'simple', prompt: 'a lighthouse' },
      headers: { 'Idempotency-Key': 'k'.repeat(32) },
    });
    expect(header(server.calls[0]!, 'Idempotency-Key')).toBe('k'.repeat(32));
    expect(header(server.calls[0]!, 'Authorization')).toBe(`Bearer ${store.get('access')}`);
  });

  it('treats the stored strings "null" and "undefined" as no token', async () => {
    localStorage.setItem('access', 'null');
    localStorage.setItem('refresh', 'undefined');
    const server = fakeServer(() => json(200, {}));
    const api = createApiClient({ fetch: server.fetch, now: () => NOW });
    await api.request('GET', '/api/config/');
    expect(server.calls.map((c) => c.url)).toEqual(['/api/config/']);
    expect(header(server.calls[0]!, 'Authorization')).toBeUndefined();
  });
});

describe('token refresh scheduling', () => {
  it('refreshes when the access token expires in under 60 seconds', () => {
    expect(shouldRefreshAccess(accessExpiringIn(59, NOW), NOW)).toBe(true);
    expect(shouldRefreshAccess(accessExpiringIn(61, NOW), NOW)).toBe(false);
    expect(shouldRefreshAccess(null, NOW)).toBe(true);
  });

  it('runs one refresh for concurrent requests and uses the new token for all of them', async () => {
    const store = memoryStore({ access: accessExpiringIn(30, NOW), refresh: 'r1' });
    const fresh = accessExpiringIn(300, NOW);
    const server = fakeServer(async (call) => {
      if (call.url === REFRESH_PATH) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        return json(200, { refresh: 'r2', access: fresh });
      }
      return json(200, { ok: true });
    });
    const api = createApiClient({ fetch: server.fetch, store, now: () => NOW });
    await Promise.all([
      api.request('GET', '/api/a/'),
      api.request('GET', '/api/b/'),
      api.request('POST', '/api/c/', { body: {} }),
    ]);
    const refreshes = server.calls.filter((c) => c.url === REFRESH_PATH);
    expect(refreshes).toHaveLength(1);
    expect(JSON.parse(refreshes[0]!.init.body as string)).toEqual({ refresh: 'r1' });
    expect(store.get('refresh')).toBe('r2');
    for (const call of server.calls.filter((c) => c.url !== REFRESH_PATH)) {
      expect(header(call, 'Authorization')).toBe(`Bearer ${fresh}`);
    }
  });

  it('does not refresh a token with time left, nor before the refresh call itself', async () => {
    const store = memoryStore({ access: accessExpiringIn(200, NOW), refresh: 'r1' });
    const server = fakeServer(() => json(200, {}));
    const api = createApiClient({ fetch: server.fetch, store, now: () => NOW });
    await api.request('GET', '/api/a/');
    expect(server.calls.map((c) => c.url)).toEqual(['/api/a/']);
  });

  it('refreshes when only a refresh token is stored (the token query parameter)', async () => {
    const store = memoryStore({ refresh: 'from-link' });
    const server = fakeServer((call) =>
      call.url === REFRESH_PATH
        ? json(200, { refresh: 'r2', access: accessExpiringIn(300, NOW) })
        : json(200, {}),
    );
    const api = createApiClient({ fetch: server.fetch, store, now: () => NOW });
    await api.request('GET', '/api/users/me/');
    expect(server.calls.map((c) => c.url)).toEqual([REFRESH_PATH, '/api/users/me/']);
  });

  it('logs out when the refresh is refused', async () => {
    const onLoggedOut = vi.fn();
    const store = memoryStore({ access: accessExpiringIn(10, NOW), refresh: 'used-twice' });
    const server = fakeServer(() =>
      json(401, { detail: 'Token is invalid or expired', code: 'auth.token_revoked' }),
    );
    const api = createApiClient({ fetch: server.fetch, store, now: () => NOW, onLoggedOut });
    await expect(api.request('GET', '/api/a/')).rejects.toBeInstanceOf(ApiError);
    expect(store.get('refresh')).toBeNull();
    expect(store.get('access')).toBeNull();
    expect(onLoggedOut).toHaveBeenCalledWith('refresh');
  });

  it('logs out when the access token cannot be decoded', async () => {
    const onLoggedOut = vi.fn();
    const store = memoryStore({ access: 'garbage', refresh: 'r1' });
    const server = fakeServer(() => json(200, {}));
    const api = createApiClient({ fetch: server.fetch, store, now: () => NOW, onLoggedOut });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await api.request('GET', '/api/config/');
    warn.mockRestore();
    expect(onLoggedOut).toHaveBeenCalledWith('decode');
    expect(store.get('refresh')).toBeNull();
    expect(header(server.calls[0]!, 'Authorization')).toBeUndefined();
  });

  it('keeps the session when the refresh gets no answer at all', async () => {
    const store = memoryStore({ access: accessExpiringIn(10, NOW), refresh: 'r1' });
    const server = fakeServer(() => {
      throw new TypeError('Failed to fetch');
    });
    const api = createApiClient({ fetch: server.fetch, store, now: () => NOW });
    await expect(api.request('GET', '/api/a/')).rejects.toBeInstanceOf(TypeError);
    expect(store.get('refresh')).toBe('r1');
  });

  it('never refreshes with Telegram init data', async () => {
    const store = memoryStore({ tgData: 'hash=x', access: accessExpiringIn(1, NOW), refresh: 'r1' });
    const server = fakeServer(() => json(200, {}));
    const api = createApiClient({ fetch: server.fetch, store, now: () => NOW });
    await api.request('GET', '/api/users/me/');
    expect(server.calls.map((c) => c.url)).toEqual(['/api/users/me/']);
  });

  it('turns error answers into ApiError with the parsed body', async () => {
    const store = memoryStore();
    const server = fakeServer(() =>
      json(400, { email: ['Enter a valid email address.'], code: 'common.validation' }),
    );
    const api = createApiClient({ fetch: server.fetch, store, now: () => NOW });
    const error = await api.request('POST', '/api/users/', { body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).parsed).toEqual({
      kind: 'fields',
      fields: { email: ['Enter a valid email address.'] },
      code: 'common.validation',
    });
  });
});

describe('calls by a route declaration', () => {
  it('uses the declared method, fills the path parameters and serialises the query', async () => {
    const server = fakeServer(() => json(200, { results: [], next: null }));
    const api = createApiClient({ fetch: server.fetch, store: memoryStore(), now: () => NOW });
    await api.call(routes.social.posts, { params: { uuid: 'a b/c' }, query: { cursor: null, limit: 20 } });
    await api.call(routes.users.byIds, { query: { 'id[]': ['1', '2'] } });
    await api.call(routes.posts.unsave, { params: { uuid: 'p1' } });
    expect(server.calls.map((c) => `${c.init.method} ${c.url}`)).toEqual([
      'GET /api/users/a%20b%2Fc/posts/?limit=20',
      'GET /api/users/by_ids/?id%5B%5D=1&id%5B%5D=2',
      'DELETE /api/posts/p1/save/',
    ]);
  });

  it('sends the body as JSON and answers with the parsed body (null for a 204)', async () => {
    const server = fakeServer((call) =>
      call.url.includes('view') ? json(204, null) : json(201, { uuid: 'm1' }),
    );
    const api = createApiClient({ fetch: server.fetch, store: memoryStore(), now: () => NOW });
    await expect(
      api.call(routes.models.create, { body: { name: 'Me', category: 'female' } }),
    ).resolves.toEqual({
      uuid: 'm1',
    });
    expect(server.calls[0]!.init.body).toBe(JSON.stringify({ name: 'Me', category: 'female' }));
    await expect(api.call(routes.posts.view, { params: { uuid: 'p1' } })).resolves.toBeNull();
  });
});

describe('answers a server-rendered page arrived with', () => {
  const FEED = '/api/posts/?type=recommended&limit=20';

  it('answer the same guest request once, as the page was rendered with it', async () => {
    const server = fakeServer(() => json(200, { results: ['fresh'], next: null }));
    const api = createApiClient({ fetch: server.fetch, store: memoryStore(), now: () => NOW });
    answerFromPage({ [FEED]: { results: ['from the page'], next: null } });
    const first = { query: { type: 'recommended', cursor: null, limit: 20 } } as const;
    await expect(api.call(routes.posts.list, first)).resolves.toEqual({
      results: ['from the page'],
      next: null,
    });
    expect(server.calls).toEqual([]);
    // Once: a later refresh of the list asks the server.
    await expect(api.call(routes.posts.list, first)).resolves.toEqual({ results: ['fresh'], next: null });
    expect(server.calls.map((call) => call.url)).toEqual([FEED]);
  });

  it('are not for a signed-in person, whose list is their own', async () => {
    const server = fakeServer(() => json(200, { results: ['mine'], next: null }));
    const store = memoryStore({ access: accessExpiringIn(3600, NOW), refresh: 'r' });
    const api = createApiClient({ fetch: server.fetch, store, now: () => NOW });
    answerFromPage({ [FEED]: { results: ['a guest’s'], next: null } });
    await expect(api.call(routes.posts.list, { query: { type: 'recommended', limit: 20 } })).resolves.toEqual(
      { results: ['mine'], next: null },
    );
    expect(server.calls).toHaveLength(1);
  });
});
