import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActiveUser, uniqueEmail } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: {
      RATE_LIMIT_LOGIN_PER_IP: '6',
      RATE_LIMIT_LOGIN_PER_EMAIL: '3',
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
  it('limits sign-in attempts per email, then per IP, with 429, detail and Retry-After', async () => {
    const user = await createActiveUser(t);
    const attempt = (email: string, ip: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/token/login/',
        payload: { email, password: 'wrong-password' },
        ...from(ip),
      });
    for (let i = 0; i < 3; i++) expect((await attempt(user.email!, '10.0.0.1')).statusCode).toBe(401);
    const blocked = await attempt(user.email!, '10.0.0.2');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({
      code: 'common.throttled',
      detail: expect.stringMatching(/^Request was throttled\. Expected available in \d+ seconds\.$/),
    });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(600);

    // Other emails from the first IP still have attempts left, until the IP's own limit (6).
    for (let i = 0; i < 3; i++) expect((await attempt(uniqueEmail(), '10.0.0.1')).statusCode).toBe(401);
    expect((await attempt(uniqueEmail(), '10.0.0.1')).statusCode).toBe(429);
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
