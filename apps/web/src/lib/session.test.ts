import { afterEach, describe, expect, it, vi } from 'vitest';
import { accessExpiringIn } from '../test/jwt';
import { loadUser, useSession } from './session';

const USER = {
  id: 7,
  uuid: '6f1f6c3e-2f55-4a59-9a68-0d6f4bb3e6b1',
  email: 'ada@example.com',
  firstName: 'Ada',
};

function answerUserFetchWith(status: number) {
  const fetch = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) =>
    status === 200
      ? new Response(JSON.stringify(USER), { status, headers: { 'content-type': 'application/json' } })
      : new Response(JSON.stringify({ detail: 'nope' }), {
          status,
          headers: { 'content-type': 'application/json' },
        }),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function storeSession() {
  localStorage.setItem('refresh', 'refresh-token');
  localStorage.setItem('access', accessExpiringIn(300));
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('loading the signed-in user', () => {
  it('stores the user when the fetch succeeds', async () => {
    storeSession();
    const fetch = answerUserFetchWith(200);
    expect(await loadUser()).toMatchObject({ id: 7 });
    expect(String(fetch.mock.calls[0]?.[0])).toContain('/api/users/me/');
    expect(useSession.getState()).toMatchObject({ isLoggedIn: true, status: 'ready', user: { id: 7 } });
  });

  it('clears the tokens when the fetch fails with a status below 500', async () => {
    storeSession();
    answerUserFetchWith(401);
    expect(await loadUser()).toBeNull();
    expect(localStorage.getItem('refresh')).toBeNull();
    expect(localStorage.getItem('access')).toBeNull();
    expect(useSession.getState()).toMatchObject({ isLoggedIn: false, status: 'guest', user: null });
  });

  it('keeps the tokens when the server fails with 500 or more', async () => {
    storeSession();
    answerUserFetchWith(502);
    expect(await loadUser()).toBeNull();
    expect(localStorage.getItem('refresh')).toBe('refresh-token');
    expect(useSession.getState()).toMatchObject({ isLoggedIn: true, status: 'error' });
  });
});
