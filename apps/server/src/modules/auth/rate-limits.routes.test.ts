import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createActiveUser, login, uniqueEmail } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { buildTaskList } from '../../app/jobs.registry.js';
import { knownAddressKey } from '../users/users.models.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: {
      RATE_LIMIT_LOGIN_PER_IP: '6',
      RATE_LIMIT_LOGIN_PER_EMAIL: '3',
      RATE_LIMIT_LOGIN_FAILURES_PER_ACCOUNT: '5',
      RATE_LIMIT_PASSWORD_CHECK_PER_USER: '3',
      RATE_LIMIT_REGISTER_PER_IP: '2',
      RATE_LIMIT_EMAIL_PER_IP: '4',
      RATE_LIMIT_EMAIL_PER_ADDRESS: '2',
      RATE_LIMIT_WINDOW_SECONDS: '600',
    },
  });
});
afterAll(() => t.close());

const from = (ip: string) => ({ remoteAddress: ip });

describe('rate limits', () => {
  it('limits sign-in attempts per email from one address, then per address, with 429, detail and Retry-After', async () => {
    const user = await createActiveUser(t);
    const attempt = (email: string, ip: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/token/login/',
        payload: { email, password: 'wrong-password' },
        ...from(ip),
      });
    for (let i = 0; i < 3; i++) expect((await attempt(user.email!, '10.0.0.1')).statusCode).toBe(401);
    const blocked = await attempt(user.email!, '10.0.0.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({
      code: 'common.throttled',
      detail: expect.stringMatching(/^Request was throttled\. Expected available in \d+ seconds\.$/),
    });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(600);

    // Other emails from the first IP still have attempts left, until the IP's own limit (6).
    for (let i = 0; i < 2; i++) expect((await attempt(uniqueEmail(), '10.0.0.1')).statusCode).toBe(401);
    expect((await attempt(uniqueEmail(), '10.0.0.1')).statusCode).toBe(429);
  });

  it('another address that used up its attempts on an email does not lock the owner out', async () => {
    const owner = await createActiveUser(t);
    const attempt = (password: string, ip: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/token/login/',
        payload: { email: owner.email, password },
        ...from(ip),
      });
    for (let i = 0; i < 3; i++) expect((await attempt('wrong-password', '10.0.7.1')).statusCode).toBe(401);
    expect((await attempt('wrong-password', '10.0.7.1')).statusCode).toBe(429);
    // The owner, elsewhere, signs in at once (never having signed in before), and a typo there is a 401.
    expect((await attempt('wrong-password', '10.0.7.2')).statusCode).toBe(401);
    expect((await attempt(owner.password, '10.0.7.2')).statusCode).toBe(200);
  });

  it('stops guessing spread over many addresses, except from an address the account signed in from', async () => {
    const owner = await createActiveUser(t);
    const attempt = (password: string, ip: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/token/login/',
        payload: { email: owner.email, password },
        ...from(ip),
      });
    expect((await attempt(owner.password, '10.0.8.1')).statusCode).toBe(200);
    // Five failures on the account (its limit), each from an address of its own.
    for (let i = 0; i < 5; i++) expect((await attempt('wrong-password', `10.0.9.${i}`)).statusCode).toBe(401);
    // A new address is refused even with the right password: the guesser cannot go on.
    const refused = await attempt(owner.password, '10.0.9.100');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // The owner's address that signed in before still gets in.
    expect((await attempt(owner.password, '10.0.8.1')).statusCode).toBe(200);
    // And the owner's correct sign-ins are not failures: other accounts are untouched.
    const other = await createActiveUser(t);
    const fresh = await t.app.inject({
      method: 'POST',
      url: '/api/token/login/',
      payload: { email: other.email, password: other.password },
      ...from('10.0.9.101'),
    });
    expect(fresh.statusCode).toBe(200);
  });

  it('keeps an address the account signed in from through the daily cleanup, for 90 days', async () => {
    const owner = await createActiveUser(t);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/token/login/',
      payload: { email: owner.email, password: owner.password },
      ...from('10.0.11.1'),
    });
    expect(signIn.statusCode).toBe(200);
    const cleanup = buildTaskList(t.deps)['maintenance:cleanup']!;
    const isKnownAfter = async (days: number) => {
      t.setNow(new Date(Date.now() + days * 24 * 3600 * 1000));
      try {
        await cleanup({}, {} as never);
        return await t.deps.rateLimiter.isRemembered(knownAddressKey(owner.id, '10.0.11.1'));
      } finally {
        t.setNow(undefined);
      }
    };
    expect(await isKnownAfter(2)).toBe(true);
    expect(await isKnownAfter(89)).toBe(true);
    expect(await isKnownAfter(91)).toBe(false);
  });

  it('limits checks of the current password: changing it and deleting the account', async () => {
    const user = await createActiveUser(t);
    const headers = bearer((await login(t, user.email!, user.password)).access);
    const change = (current: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/users/set_password/',
        headers,
        payload: { current_password: current, new_password: 'Quiet-Harbour-93' },
      });
    for (let i = 0; i < 3; i++) expect((await change('Wrong-Guess-11')).statusCode).toBe(400);
    const blocked = await change(user.password);
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);

    const other = await createActiveUser(t);
    const otherHeaders = bearer((await login(t, other.email!, other.password)).access);
    const remove = (current: string) =>
      t.app.inject({
        method: 'DELETE',
        url: '/api/users/me/',
        headers: otherHeaders,
        payload: { posts: 'delete', current_password: current },
      });
    for (let i = 0; i < 3; i++) expect((await remove('Wrong-Guess-11')).statusCode).toBe(400);
    expect((await remove(other.password)).statusCode).toBe(429);
    const me = await t.app.inject({ method: 'GET', url: '/api/users/me/', headers: otherHeaders });
    expect(me.statusCode).toBe(200);
  });

  it('opens again when the window has passed', async () => {
    const email = uniqueEmail();
    const attempt = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/token/login/',
        payload: { email, password: 'x' },
        ...from('10.0.1.1'),
      });
    for (let i = 0; i < 3; i++) await attempt();
    expect((await attempt()).statusCode).toBe(429);
    t.setNow(new Date(Date.now() + 601 * 1000));
    try {
      expect((await attempt()).statusCode).toBe(401);
    } finally {
      t.setNow(undefined);
    }
  });

  it('limits registrations per IP', async () => {
    const register = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/users/',
        payload: { email: uniqueEmail(), password: 'Calm-Forest-72' },
        ...from('10.0.2.1'),
      });
    expect((await register()).statusCode).toBe(201);
    expect((await register()).statusCode).toBe(201);
    expect((await register()).statusCode).toBe(429);
  });

  it('limits reset and resend emails per address and per IP', async () => {
    const user = await createActiveUser(t);
    const reset = (ip: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/users/reset_password/',
        payload: { email: user.email },
        ...from(ip),
      });
    expect((await reset('10.0.3.1')).statusCode).toBe(204);
    expect((await reset('10.0.3.2')).statusCode).toBe(204);
    expect((await reset('10.0.3.3')).statusCode).toBe(429);
    const resend = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/users/resend_activation/',
        payload: { email: uniqueEmail() },
        ...from('10.0.4.1'),
      });
    for (let i = 0; i < 4; i++) expect((await resend()).statusCode).toBe(204);
    expect((await resend()).statusCode).toBe(429);
  });
});
