import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { bearer, createActiveUser, login, uniqueEmail } from '../../test/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

function linkFrom(text: string, route: string): { uid: string; token: string; url: string } {
  const match = new RegExp(`(http://mirra\\.test/${route}/([^/\\s]+)/([^/\\s]+))`).exec(text);
  if (!match) throw new Error(`no /${route}/ link in:\n${text}`);
  return { url: match[1]!, uid: match[2]!, token: match[3]! };
}

describe('registration and activation by email', () => {
  it('registers an inactive user, emails an activation link that activates the account once', async () => {
    const email = uniqueEmail('alice');
    const register = await t.app.inject({
      method: 'POST',
      url: '/api/users/',
      headers: { 'accept-language': 'ru-RU,ru;q=0.9' },
      payload: { email: `  ${email.toUpperCase()} `, password: 'Blue-Otter-73', firstName: 'Алиса' },
    });
    expect(register.statusCode).toBe(201);
    expect(register.json()).toMatchObject({ email, id: expect.any(Number), uuid: expect.any(String) });

    // Not active yet: signing in is refused exactly like a wrong password.
    const early = await t.app.inject({
      method: 'POST',
      url: '/api/token/login/',
      payload: { email, password: 'Blue-Otter-73' },
    });
    expect(early.statusCode).toBe(401);
    expect(early.json()).toEqual({
      detail: 'No active account found with the given credentials',
      code: 'auth.invalid_credentials',
    });

    await t.runJobs();
    const mails = (await t.readOutbox()).filter((m) => m.to === email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Подтвердите почту для Mirra');
    expect(mails[0]!.text).toContain('Алиса');
    const link = linkFrom(mails[0]!.text, 'activate');

    const activate = await t.app.inject({
      method: 'POST',
      url: '/api/users/activation/',
      payload: { uid: link.uid, token: link.token },
    });
    // Following the link signs the person in: a session like a password sign-in opens.
    expect(activate.statusCode).toBe(200);
    const session = activate.json();
    // The link is the account's first sign-in: `created` tells the app to show its onboarding.
    expect(session).toEqual({ access: expect.any(String), refresh: expect.any(String), created: true });
    const activatedMe = await t.app.inject({
      method: 'GET',
      url: '/api/users/me/',
      headers: bearer(session.access),
    });
    expect(activatedMe.json()).toMatchObject({ email, firstName: 'Алиса' });
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh/',
      payload: { refresh: session.refresh },
    });
    expect(refreshed.statusCode).toBe(200);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/users/activation/',
      payload: { uid: link.uid, token: link.token },
    });
    expect(again.statusCode).toBe(403);
    expect(again.json()).toEqual({ detail: 'Stale token for given user.', code: 'users.activation_stale' });

    const pair = await login(t, email, 'Blue-Otter-73');
    // A password sign-in afterwards is someone coming back.
    expect(pair.created).toBe(false);
    const me = await t.app.inject({ method: 'GET', url: '/api/users/me/', headers: bearer(pair.access) });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      email,
      firstName: 'Алиса',
      registered: true,
      lora: false,
      language: 'ru',
      referer: null,
    });
  });

  it('signs in only once when the same activation link is opened twice at once', async () => {
    const email = uniqueEmail('twice');
    await t.app.inject({ method: 'POST', url: '/api/users/', payload: { email, password: 'Blue-Otter-73' } });
    await t.runJobs();
    const link = linkFrom((await t.readOutbox()).find((m) => m.to === email)!.text, 'activate');
    const answers = await Promise.all(
      [1, 2].map(() =>
        t.app.inject({
          method: 'POST',
          url: '/api/users/activation/',
          payload: { uid: link.uid, token: link.token },
        }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 403]);
    expect(answers.find((answer) => answer.statusCode === 403)!.json()).toMatchObject({
      code: 'users.activation_stale',
    });
  });

  it('answers every validation problem at once, in DRF field shape', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/users/',
      payload: { email: 'not-an-email', password: '123' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: 'common.validation', email: ['Enter a valid email address.'] });

    const weak = await t.app.inject({
      method: 'POST',
      url: '/api/users/',
      payload: { email: uniqueEmail(), password: '1234567' },
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toEqual({
      code: 'common.validation',
      password: [
        'This password is too short. It must contain at least 8 characters.',
        'This password is too common.',
        'This password is entirely numeric.',
      ],
    });

    const missing = await t.app.inject({ method: 'POST', url: '/api/users/', payload: {} });
    expect(missing.json()).toEqual({
      code: 'common.validation',
      email: ['This field is required.'],
      password: ['This field is required.'],
    });
  });

  it('refuses a second account with the same email', async () => {
    const user = await createActiveUser(t);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/users/',
      payload: { email: user.email, password: 'Another-Pass-9' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: 'users.email_taken',
      email: ['user with this email address already exists.'],
    });
  });

  it('records the referer of a user who signed up through a reflink', async () => {
    const partner = await createActiveUser(t);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/users/',
      payload: {
        email: uniqueEmail('referred'),
        password: 'Green-Lake-55',
        referral_code: partner.referralCode,
      },
    });
    expect(response.statusCode).toBe(201);
    const row = await t.deps.db.query.users.findFirst({ where: (u, { eq }) => eq(u.id, response.json().id) });
    expect(row?.refererId).toBe(partner.id);
  });
});
