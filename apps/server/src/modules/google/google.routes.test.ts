import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGoogleCertsFake, type GoogleCertsFake } from '../../fakes/google-certs.fake.js';
import { users } from '../../shared/db/schema.js';
import { bearer, createActiveUser, login, uniqueEmail } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

let google: GoogleCertsFake;
let t: TestApp;
beforeAll(async () => {
  google = await startGoogleCertsFake();
  t = await createTestApp({ env: { GOOGLE_CLIENT_ID: google.clientId, GOOGLE_CERTS_URL: google.url } });
});
afterAll(async () => {
  await t.close();
  await google.close();
});

const signIn = (app: TestApp, payload: unknown, headers: Record<string, string> = {}) =>
  app.app.inject({ method: 'POST', url: '/api/auth/google/', payload: payload as object, headers });
const me = (access: string) =>
  t.app.inject({ method: 'GET', url: '/api/users/me/', headers: bearer(access) });
const usersWhere = (column: 'email' | 'googleSub', value: string) =>
  t.deps.db.select().from(users).where(eq(users[column], value));
const nowSeconds = () => Math.floor(Date.now() / 1000);
const INVALID = { detail: 'Invalid Google credential.', code: 'auth.google_invalid' };

describe('first Google sign-in', () => {
  it('creates an active account from the token and answers {token, refresh, access, created: true}', async () => {
    const email = uniqueEmail('ada');
    const credential = await google.signIdToken({
      sub: '110169484474386276334',
      email,
      given_name: 'Ада',
      family_name: 'Лавлейс',
      locale: 'ru',
    });
    const response = await signIn(t, { credential });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['access', 'created', 'refresh', 'token']);
    expect(body.token).toBe(body.refresh);
    // This sign-in made the account: the app shows its onboarding.
    expect(body.created).toBe(true);

    const profile = (await me(body.access)).json();
    expect(profile).toMatchObject({
      email,
      firstName: 'Ада',
      lastName: 'Лавлейс',
      language: 'ru',
      google_linked: true,
      telegram_linked: false,
      // No password: this account cannot sign in with email and password (yet).
      registered: false,
      referer: null,
    });
    const [row] = await usersWhere('googleSub', '110169484474386276334');
    expect(row).toMatchObject({ id: profile.id, isActive: true, passwordHash: null });
    expect(row!.lastLogin).toBeInstanceOf(Date);

    // The refresh token works like any other session's.
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh/',
      payload: { refresh: body.refresh },
    });
    expect(refreshed.statusCode).toBe(200);
  });

  it('signs the same Google account into the same user every time, created only the first time', async () => {
    const credential = await google.signIdToken({ email: uniqueEmail('repeat') });
    const first = (await signIn(t, { credential })).json();
    expect(first.created).toBe(true);
    // A later token for the same person: new iat/jti, same sub, even a changed name.
    const { sub } = JSON.parse(Buffer.from(credential.split('.')[1]!, 'base64url').toString());
    const later = await google.signIdToken({ sub, given_name: 'Changed' });
    const second = (await signIn(t, { credential: later })).json();
    expect(second.created).toBe(false);
    const [a, b] = [(await me(first.access)).json(), (await me(second.access)).json()];
    expect(b.id).toBe(a.id);
    expect(b.firstName).toBe('Ada');
    expect(await usersWhere('googleSub', sub)).toHaveLength(1);
  });

  it('keeps the email only when Google verified it, and lower-cases it', async () => {
    const unverified = await signIn(t, {
      credential: await google.signIdToken({ email: uniqueEmail('unverified'), email_verified: false }),
    });
    expect(unverified.statusCode).toBe(200);
    expect((await me(unverified.json().access)).json()).toMatchObject({ email: null, google_linked: true });

    const email = uniqueEmail('MixedCase');
    const verified = await signIn(t, { credential: await google.signIdToken({ email }) });
    expect((await me(verified.json().access)).json().email).toBe(email.toLowerCase());

    // No email claim at all (a token without the email scope), no name, an unknown locale.
    const bare = await signIn(t, {
      credential: await google.signIdToken({
        email: undefined,
        email_verified: undefined,
        given_name: undefined,
        family_name: undefined,
        locale: 'pt-BR',
      }),
    });
    expect(bare.statusCode).toBe(200);
    expect((await me(bare.json().access)).json()).toMatchObject({
      email: null,
      firstName: '',
      lastName: '',
      language: null,
    });
  });

  it('records the referer from referral_code, as registration does', async () => {
    const referer = await createActiveUser(t);
    const response = await signIn(t, {
      credential: await google.signIdToken(),
      referral_code: referer.referralCode,
    });
    expect(response.statusCode).toBe(200);
    expect((await me(response.json().access)).json().referer).toBe(referer.id);

    // An unknown code is ignored rather than refused.
    const unknown = await signIn(t, { credential: await google.signIdToken(), referral_code: 'nosuchcode' });
    expect(unknown.statusCode).toBe(200);
    expect((await me(unknown.json().access)).json().referer).toBeNull();
  });

  it('gives two simultaneous first sign-ins of one Google account one user', async () => {
    const sub = '109876543210987654321';
    const email = uniqueEmail('twice');
    const [one, two] = await Promise.all([
      signIn(t, { credential: await google.signIdToken({ sub, email }) }),
      signIn(t, { credential: await google.signIdToken({ sub, email }) }),
    ]);
    expect([one.statusCode, two.statusCode]).toEqual([200, 200]);
    expect((await me(one.json().access)).json().id).toBe((await me(two.json().access)).json().id);
    expect(await usersWhere('googleSub', sub)).toHaveLength(1);
  });
});

describe('an existing email account', () => {
  it('is linked and activated by a verified Google email, not duplicated', async () => {
    // Registered but never activated: the activation email was never clicked.
    const email = uniqueEmail('registered');
    const register = await t.app.inject({
      method: 'POST',
      url: '/api/users/',
      payload: { email, password: 'Blue-Otter-73', firstName: 'Reg' },
    });
    expect(register.statusCode).toBe(201);
    const { id } = register.json();

    const response = await signIn(t, {
      credential: await google.signIdToken({ email: email.toUpperCase(), given_name: 'Other' }),
    });
    expect(response.statusCode).toBe(200);
    // The sign-up never started (its link unopened): this first sign-in is where it does.
    expect(response.json().created).toBe(true);
    const profile = (await me(response.json().access)).json();
    expect(profile).toMatchObject({ id, email, google_linked: true, registered: true, firstName: 'Reg' });
    const rows = await usersWhere('email', email);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.isActive).toBe(true);
    // Google proved the address, so the password chosen at registration now works too.
    await expect(login(t, email, 'Blue-Otter-73')).resolves.toMatchObject({ access: expect.any(String) });
  });

  it('is not linked by an unverified Google email: that sign-in gets a separate account without email', async () => {
    const existing = await createActiveUser(t);
    const response = await signIn(t, {
      credential: await google.signIdToken({ email: existing.email!, email_verified: false }),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().created).toBe(true);
    const profile = (await me(response.json().access)).json();
    expect(profile.id).not.toBe(existing.id);
    expect(profile.email).toBeNull();
    const [untouched] = await usersWhere('email', existing.email!);
    expect(untouched).toMatchObject({ id: existing.id, googleSub: null });
  });
});

describe('linking Google while signed in', () => {
  it('links Google to the caller’s own account, whatever email the Google account has', async () => {
    const user = await createActiveUser(t);
    const { access } = await login(t, user.email!, user.password);
    const credential = await google.signIdToken({ email: uniqueEmail('elsewhere') });
    const response = await signIn(t, { credential }, bearer(access));
    expect(response.statusCode).toBe(200);
    // Linking made no account: no onboarding for someone who has used the app.
    expect(response.json().created).toBe(false);
    expect((await me(response.json().access)).json()).toMatchObject({
      id: user.id,
      email: user.email,
      google_linked: true,
    });
    // The old session too, at once: its cached user row must not be the one from before the link.
    expect((await me(access)).json().google_linked).toBe(true);

    // From now on Google alone signs into that account: one person, one account, one balance.
    const later = await signIn(t, { credential });
    expect((await me(later.json().access)).json().id).toBe(user.id);

    // Linking the same Google account again is a plain sign-in.
    const again = await signIn(t, { credential }, bearer(access));
    expect(again.statusCode).toBe(200);
  });

  it('refuses a Google account already linked to another Mirra account', async () => {
    const credential = await google.signIdToken();
    const owner = (await me((await signIn(t, { credential })).json().access)).json();

    const user = await createActiveUser(t);
    const { access } = await login(t, user.email!, user.password);
    const response = await signIn(t, { credential }, bearer(access));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      detail: 'This Google account is already linked to another Mirra account.',
      code: 'users.identity_taken',
    });
    expect((await me(access)).json().google_linked).toBe(false);
    const { sub } = JSON.parse(Buffer.from(credential.split('.')[1]!, 'base64url').toString());
    expect((await usersWhere('googleSub', sub)).map((row) => row.id)).toEqual([owner.id]);
  });
});

describe('credentials that must not sign anyone in', () => {
  it('answers 401 auth.google_invalid for a wrong audience, issuer, expiry, signature or key id', async () => {
    const expired = nowSeconds() - 301 - 60;
    const cases: Record<string, string> = {
      'another app’s client id': await google.signIdToken({ aud: 'other-app.apps.googleusercontent.com' }),
      'a foreign issuer': await google.signIdToken({ iss: 'https://evil.example' }),
      // In google-auth-library's default issuer list, deliberately not in ours.
      'the universe-domain issuer': await google.signIdToken({ iss: 'googleapis.com' }),
      'expired beyond the 300 s clock skew': await google.signIdToken({ iat: expired - 3600, exp: expired }),
      'issued too far in the future': await google.signIdToken({ iat: nowSeconds() + 600 }),
      'a key Google does not publish': await google.signIdToken({}, { key: google.unpublishedKey }),
      'an unknown key id': await google.signIdToken({}, { kid: 'f'.repeat(40) }),
      'no expiry': await google.signIdToken({ exp: undefined }),
      'no subject': await google.signIdToken({ sub: undefined }),
      'not a JWT': 'garbage',
      'three garbage segments': 'a.b.c',
    };
    for (const [label, credential] of Object.entries(cases)) {
      const response = await signIn(t, { credential });
      expect({ label, status: response.statusCode, body: response.json() }).toEqual({
        label,
        status: 401,
        body: INVALID,
      });
    }
  });

  it('still accepts a token that expired within the 300 s clock skew', async () => {
    const exp = nowSeconds() - 100;
    const response = await signIn(t, { credential: await google.signIdToken({ iat: exp - 3600, exp }) });
    expect(response.statusCode).toBe(200);
  });

  it('answers a missing or blank credential with DRF field errors', async () => {
    const missing = await signIn(t, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ credential: ['This field is required.'], code: 'common.validation' });
    const blank = await signIn(t, { credential: '  ' });
    expect(blank.json()).toEqual({ credential: ['This field may not be blank.'], code: 'common.validation' });
  });

  it('treats a broken Bearer header as none: the call is a plain sign-in', async () => {
    const response = await signIn(t, { credential: await google.signIdToken() }, bearer('not-a-jwt'));
    expect(response.statusCode).toBe(200);
  });
});

describe('the Google signing keys', () => {
  it('are fetched once and then served from the cache Cache-Control allows', async () => {
    const fake = await startGoogleCertsFake({ maxAgeSeconds: 3600 });
    const app = await createTestApp({ env: { GOOGLE_CLIENT_ID: fake.clientId, GOOGLE_CERTS_URL: fake.url } });
    try {
      for (let i = 0; i < 3; i++) {
        expect((await signIn(app, { credential: await fake.signIdToken() })).statusCode).toBe(200);
      }
      expect(fake.fetchCount()).toBe(1);
    } finally {
      await app.close();
      await fake.close();
    }
  });

  it('follow Google’s rotation: both published kids verify, a retired one no longer does', async () => {
    // max-age=0: every sign-in fetches the certificates, so the rotation is seen at once.
    const fake = await startGoogleCertsFake({ maxAgeSeconds: 0 });
    const app = await createTestApp({ env: { GOOGLE_CLIENT_ID: fake.clientId, GOOGLE_CERTS_URL: fake.url } });
    try {
      const [oldest, current] = fake.publishedKids();
      for (const kid of [oldest!, current!]) {
        expect((await signIn(app, { credential: await fake.signIdToken({}, { kid }) })).statusCode).toBe(200);
      }
      const next = await fake.rotateKeys();
      expect(fake.publishedKids()).toEqual([current, next]);
      expect((await signIn(app, { credential: await fake.signIdToken() })).statusCode).toBe(200);
      const retired = await signIn(app, { credential: await fake.signIdToken({}, { kid: oldest! }) });
      expect(retired.statusCode).toBe(401);
      expect(retired.json()).toEqual(INVALID);
      expect(fake.fetchCount()).toBe(4);
    } finally {
      await app.close();
      await fake.close();
    }
  });

  it('work in the SPKI PEM format as well as X.509 certificates', async () => {
    const fake = await startGoogleCertsFake({ format: 'spki' });
    const app = await createTestApp({ env: { GOOGLE_CLIENT_ID: fake.clientId, GOOGLE_CERTS_URL: fake.url } });
    try {
      expect((await signIn(app, { credential: await fake.signIdToken() })).statusCode).toBe(200);
    } finally {
      await app.close();
      await fake.close();
    }
  });

  it('being unreachable is a 503 (our outage), not an invalid credential; sign-in recovers after', async () => {
    const fake = await startGoogleCertsFake();
    const app = await createTestApp({ env: { GOOGLE_CLIENT_ID: fake.clientId, GOOGLE_CERTS_URL: fake.url } });
    try {
      fake.failWith(503);
      const credential = await fake.signIdToken();
      const down = await signIn(app, { credential });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual({
        detail: 'Google sign-in is temporarily unavailable. Try again later.',
        code: 'auth.google_unavailable',
      });
      fake.failWith(null);
      expect((await signIn(app, { credential })).statusCode).toBe(200);
    } finally {
      await app.close();
      await fake.close();
    }
  });
});

describe('a server without GOOGLE_CLIENT_ID', () => {
  it('answers 503 auth.google_unavailable and fetches nothing', async () => {
    const app = await createTestApp();
    try {
      const fetchesBefore = google.fetchCount();
      const response = await signIn(app, { credential: await google.signIdToken() });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        detail: 'Google sign-in is not configured on this server.',
        code: 'auth.google_unavailable',
      });
      expect(google.fetchCount()).toBe(fetchesBefore);
    } finally {
      await app.close();
    }
  });
});
