import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createActiveUser, login } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const me = (access: string) =>
  t.app.inject({ method: 'GET', url: '/api/users/me/', headers: bearer(access) });
const refresh = (token: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/refresh/', payload: { refresh: token } });

describe('sign-in with email and password', () => {
  it('returns a refresh and an access token; the access token carries exp in seconds and lives 5 minutes', async () => {
    const user = await createActiveUser(t);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/token/login/',
      payload: { email: `  ${user.email!.toUpperCase()}  `, password: user.password },
    });
    expect(response.statusCode).toBe(200);
    const { access, refresh: refreshToken } = response.json();
    const claims = decodeJwt(access);
    expect(claims).toMatchObject({ token_type: 'access', user_id: user.id });
    expect(claims.exp! - claims.iat!).toBe(300);
    expect(Number.isInteger(claims.exp)).toBe(true);
    expect(decodeJwt(refreshToken).token_type).toBe('refresh');
    expect((await me(access)).json()).toMatchObject({ id: user.id, email: user.email });
  });

  it('refuses a wrong password and an unknown email with the same 401', async () => {
    const user = await createActiveUser(t);
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/token/login/',
      payload: { email: user.email, password: 'nope-nope-nope' },
    });
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/token/login/',
      payload: { email: 'nobody@example.com', password: 'nope-nope-nope' },
    });
    for (const response of [wrong, unknown]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        detail: 'No active account found with the given credentials',
        code: 'auth.invalid_credentials',
      });
    }
  });

  it('answers missing fields with DRF field errors', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/token/login/', payload: { email: '' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: 'common.validation',
      email: ['This field may not be blank.'],
      password: ['This field is required.'],
    });
  });
});

describe('access tokens', () => {
  it('asks for credentials when there are none, and rejects a tampered or expired token', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/users/me/' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({
      detail: 'Authentication credentials were not provided.',
      code: 'auth.not_authenticated',
    });
    expect(anonymous.headers['www-authenticate']).toBe('Bearer realm="api"');

    const user = await createActiveUser(t);
    const { access } = await login(t, user.email!, user.password);
    const [header, payload, signature] = access.split('.');
    const forged = Buffer.from(JSON.stringify({ ...decodeJwt(access), user_id: user.id + 1 })).toString(
      'base64url',
    );
    const tampered = await me(`${header}.${forged}.${signature}`);
    expect(tampered.statusCode).toBe(401);
    expect(tampered.json().code).toBe('auth.token_invalid');
    expect(payload).toBeTruthy();

    t.setNow(new Date(Date.now() + 6 * 60 * 1000));
    try {
      const expired = await me(access);
      expect(expired.statusCode).toBe(401);
      expect(expired.json()).toEqual({ detail: 'Token is expired', code: 'auth.token_expired' });
    } finally {
      t.setNow(undefined);
    }

    const garbage = await me('not-a-jwt');
    expect(garbage.statusCode).toBe(401);
    const wrongScheme = await t.app.inject({
      method: 'GET',
      url: '/api/users/me/',
      headers: { authorization: 'Basic abc' },
    });
    expect(wrongScheme.statusCode).toBe(401);
  });

  it('refuses a refresh token used as an access token and vice versa', async () => {
    const user = await createActiveUser(t);
    const pair = await login(t, user.email!, user.password);
    const asAccess = await me(pair.refresh);
    expect(asAccess.statusCode).toBe(401);
    expect(asAccess.json()).toEqual({ detail: 'Token has wrong type', code: 'auth.token_invalid' });
    const asRefresh = await refresh(pair.access);
    expect(asRefresh.statusCode).toBe(401);
    expect(asRefresh.json().code).toBe('auth.token_invalid');
  });
});

describe('refresh-token rotation', () => {
  it('gives a new pair for a refresh token, once; reusing a rotated token revokes the whole session', async () => {
    const user = await createActiveUser(t);
    const first = await login(t, user.email!, user.password);

    const second = await refresh(first.refresh);
    expect(second.statusCode).toBe(200);
    const pair2 = second.json();
    expect(pair2.refresh).not.toBe(first.refresh);
    expect((await me(pair2.access)).statusCode).toBe(200);

    // Someone replays the first (already rotated) token: treat it as stolen.
    const replay = await refresh(first.refresh);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({ detail: 'Token is blacklisted', code: 'auth.token_revoked' });

    // Everything from that sign-in is now dead, including the legitimate newer tokens.
    expect((await refresh(pair2.refresh)).statusCode).toBe(401);
    const revokedAccess = await me(pair2.access);
    expect(revokedAccess.statusCode).toBe(401);
    expect(revokedAccess.json().code).toBe('auth.token_revoked');

    // Other sign-ins of the same user are untouched.
    const other = await login(t, user.email!, user.password);
    expect((await me(other.access)).statusCode).toBe(200);
  });

  it('lets only one of two racing refreshes with the same token win', async () => {
    const user = await createActiveUser(t);
    const pair = await login(t, user.email!, user.password);
    const results = await Promise.all([refresh(pair.refresh), refresh(pair.refresh)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 401]);
  });

  it('refuses an expired refresh token', async () => {
    const user = await createActiveUser(t);
    const pair = await login(t, user.email!, user.password);
    t.setNow(new Date(Date.now() + 31 * 24 * 3600 * 1000));
    try {
      const response = await refresh(pair.refresh);
      expect(response.statusCode).toBe(401);
      expect(response.json().code).toBe('auth.token_expired');
    } finally {
      t.setNow(undefined);
    }
  });
});

describe('logout', () => {
  it('revokes the session: its access and refresh tokens stop working, other sessions stay', async () => {
    const user = await createActiveUser(t);
    const phone = await login(t, user.email!, user.password);
    const laptop = await login(t, user.email!, user.password);

    const out = await t.app.inject({
      method: 'POST',
      url: '/api/token/logout/',
      headers: { ...bearer(phone.access), 'content-type': 'application/json' },
    });
    expect(out.statusCode).toBe(204);
    expect((await me(phone.access)).statusCode).toBe(401);
    expect((await refresh(phone.refresh)).statusCode).toBe(401);
    expect((await me(laptop.access)).statusCode).toBe(200);
  });

  it('needs authentication', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/token/logout/' });
    expect(response.statusCode).toBe(401);
  });
});
