import { createHmac, generateKeyPairSync, randomUUID, sign as signBytes } from 'node:crypto';
import { sign as signWithLibrary } from '@telegram-apps/init-data-node';
import { sql } from 'drizzle-orm';
import { decodeJwt, SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startGoogleCertsFake, type GoogleCertsFake } from '../../fakes/google-certs.fake.js';
import { startTelegramBotApiFake, type TelegramBotApiFake } from '../../fakes/telegram-bot-api.fake.js';
import { AUTH_CHANGES_CHANNEL } from '../../modules/auth/session-cache.js';
import { issueSession } from '../../modules/auth/sessions.usecases.js';
import { usersRepository } from '../../modules/users/users.repository.js';
import { bearer, createActiveUser, uniqueEmail } from '../factories.js';
import { createTestApp, TEST_JWT_SECRET, type TestApp } from '../test-app.js';

// The standing matrix of credentials that must be refused: forged, expired, tampered and replayed
// access and refresh tokens, Telegram init data, webhook calls, Google ID tokens and emailed links.
// Each table has a genuine row first, so a refusal is known to come from the one thing changed.

const INIT_DATA_MAX_AGE = 600;
const WEBHOOK_SECRET = 'credentials-suite_Secret-0123456789';

let t: TestApp;
let telegram: TelegramBotApiFake;
let google: GoogleCertsFake;
beforeAll(async () => {
  [telegram, google] = await Promise.all([startTelegramBotApiFake(), startGoogleCertsFake()]);
  t = await createTestApp({
    env: {
      ...telegram.env,
      TELEGRAM_WEBHOOK_SECRET: WEBHOOK_SECRET,
      TELEGRAM_INIT_DATA_MAX_AGE: String(INIT_DATA_MAX_AGE),
      GOOGLE_CLIENT_ID: google.clientId,
      GOOGLE_CERTS_URL: google.url,
      RATE_LIMIT_REGISTER_PER_IP: '1000',
      RATE_LIMIT_EMAIL_PER_IP: '1000',
    },
  });
});
afterAll(async () => {
  await t?.close();
  await Promise.all([telegram?.close(), google?.close()]);
});
afterEach(() => t.setNow(undefined));

const nowSeconds = () => Math.floor(Date.now() / 1000);
const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const me = (headers: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: '/api/users/me/', headers });
const refresh = (token: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/refresh/', payload: { refresh: token } });

/** A signed-in user with a fresh session (no password round trip: this suite is about tokens). */
async function session() {
  const user = await createActiveUser(t);
  return { user, ...(await issueSession(t.deps, t.deps.db, user.id)) };
}
type Session = Awaited<ReturnType<typeof session>>;

/** A token in our exact format, signed by jose with any secret, algorithm and claims. */
async function jwt(
  claims: Record<string, unknown>,
  options: { secret?: string; alg?: string; withoutExp?: boolean } = {},
) {
  const iat = nowSeconds();
  let builder = new SignJWT({ iss: 'mirra', jti: randomUUID(), iat, ...claims }).setProtectedHeader({
    alg: options.alg ?? 'HS256',
    typ: 'JWT',
  });
  if (!options.withoutExp && claims.exp === undefined) builder = builder.setExpirationTime(iat + 300);
  return builder.sign(new TextEncoder().encode(options.secret ?? TEST_JWT_SECRET));
}
/** Resolves once PostgreSQL has delivered this auth-change notification to the app. */
const notificationAbout = (payload: string) =>
  new Promise<void>((resolve) =>
    t.deps.notifications!.subscribe(
      AUTH_CHANGES_CHANNEL,
      (heard) => heard === payload && resolve(),
      () => {},
    ),
  );
const claimsOf = (s: Session) => decodeJwt(s.access) as Record<string, unknown>;

describe('access tokens', () => {
  const REFUSED = (code: string) => ({ status: 401, code });
  const cases: Array<[string, (s: Session) => Promise<string> | string, { status: number; code?: string }]> =
    [
      ['a genuine token (baseline)', (s) => s.access, { status: 200 }],
      [
        'the genuine claims re-signed by this suite’s signer (baseline)',
        (s) => jwt(claimsOf(s)),
        { status: 200 },
      ],
      [
        'a token signed with another secret',
        (s) => jwt(claimsOf(s), { secret: `${TEST_JWT_SECRET}-not` }),
        REFUSED('auth.token_invalid'),
      ],
      [
        'alg none without a signature',
        (s) => `${base64url({ alg: 'none', typ: 'JWT' })}.${s.access.split('.')[1]}.`,
        REFUSED('auth.token_invalid'),
      ],
      [
        'alg none keeping the genuine signature',
        (s) => `${base64url({ alg: 'none', typ: 'JWT' })}.${s.access.split('.').slice(1).join('.')}`,
        REFUSED('auth.token_invalid'),
      ],
      [
        'alg switched to HS512, signed with the real secret',
        (s) => jwt(claimsOf(s), { alg: 'HS512' }),
        REFUSED('auth.token_invalid'),
      ],
      [
        'alg switched to RS256 in the header',
        (s) => `${base64url({ alg: 'RS256', typ: 'JWT' })}.${s.access.split('.').slice(1).join('.')}`,
        REFUSED('auth.token_invalid'),
      ],
      [
        'an expired token',
        (s) => jwt({ ...claimsOf(s), iat: nowSeconds() - 600, exp: nowSeconds() - 1 }),
        REFUSED('auth.token_expired'),
      ],
      [
        'a token without exp',
        (s) => jwt({ ...claimsOf(s), exp: undefined }, { withoutExp: true }),
        REFUSED('auth.token_invalid'),
      ],
      ['a token without iss', (s) => jwt({ ...claimsOf(s), iss: undefined }), REFUSED('auth.token_invalid')],
      [
        'the payload’s user id changed, signature kept',
        async (s) => {
          const other = await session();
          const [header, , signature] = s.access.split('.');
          return `${header}.${base64url({ ...claimsOf(s), user_id: other.user.id })}.${signature}`;
        },
        REFUSED('auth.token_invalid'),
      ],
      ['a refresh token presented as an access token', (s) => s.refresh, REFUSED('auth.token_invalid')],
      [
        'a genuine signature for a session that never existed',
        (s) => jwt({ ...claimsOf(s), fam: randomUUID() }),
        REFUSED('auth.token_revoked'),
      ],
      [
        'the token of a logged-out session',
        async (s) => {
          const out = await t.app.inject({
            method: 'POST',
            url: '/api/token/logout/',
            headers: bearer(s.access),
          });
          expect(out.statusCode).toBe(204);
          return s.access;
        },
        REFUSED('auth.token_revoked'),
      ],
      [
        'the token of a deactivated account',
        async (s) => {
          // Deactivated straight in SQL, as an operator would: the session cache hears of it by
          // NOTIFY, so the probe waits for that notification (this process's cache gets it first).
          const heard = notificationAbout(`u:${s.user.id}`);
          await usersRepository.update(t.deps.db, s.user.id, t.deps.now(), { isActive: false });
          await heard;
          return s.access;
        },
        REFUSED('auth.token_revoked'),
      ],
      ['not a JWT', () => 'not-a-jwt', REFUSED('auth.token_invalid')],
    ];

  it.each(cases)('%s', async (_label, make, expected) => {
    const s = await session();
    expect((await me(bearer(s.access))).statusCode).toBe(200);
    const response = await me(bearer(await make(s)));
    expect(response.statusCode, response.body).toBe(expected.status);
    if (expected.code) {
      expect(response.json()).toEqual({ detail: expect.any(String), code: expected.code });
      expect(response.headers['www-authenticate']).toBe('Bearer realm="api"');
    }
  });
});

describe('refresh tokens', () => {
  it('a genuine one gives the next pair once (baseline)', async () => {
    const s = await session();
    const next = await refresh(s.refresh);
    expect(next.statusCode).toBe(200);
    expect((await me(bearer(next.json().access))).statusCode).toBe(200);
  });

  it('reused: refused, and the whole session dies with it, the legitimate newer pair too', async () => {
    const s = await session();
    const rotated = (await refresh(s.refresh)).json();
    const replay = await refresh(s.refresh);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({ detail: 'Token is blacklisted', code: 'auth.token_revoked' });
    expect((await refresh(rotated.refresh)).statusCode).toBe(401);
    expect((await me(bearer(rotated.access))).json().code).toBe('auth.token_revoked');
  });

  const cases: Array<[string, (s: Session) => Promise<string> | string, string]> = [
    [
      'forged with another secret',
      (s) => jwt(decodeJwt(s.refresh), { secret: `${TEST_JWT_SECRET}-not` }),
      'auth.token_invalid',
    ],
    [
      'the user id changed, signature kept',
      async (s) => {
        const other = await session();
        const [header, , signature] = s.refresh.split('.');
        return `${header}.${base64url({ ...decodeJwt(s.refresh), user_id: other.user.id })}.${signature}`;
      },
      'auth.token_invalid',
    ],
    ['an access token presented as a refresh token', (s) => s.access, 'auth.token_invalid'],
    [
      'expired',
      (s) => {
        t.setNow(new Date(Date.now() + 31 * 24 * 3600 * 1000));
        return s.refresh;
      },
      'auth.token_expired',
    ],
    [
      'of a logged-out session',
      async (s) => {
        await t.app.inject({ method: 'POST', url: '/api/token/logout/', headers: bearer(s.access) });
        return s.refresh;
      },
      'auth.token_revoked',
    ],
  ];
  it.each(cases)('%s: refused', async (_label, make, code) => {
    const s = await session();
    const response = await refresh(await make(s));
    expect(response.statusCode, response.body).toBe(401);
    expect(response.json()).toEqual({ detail: expect.any(String), code });
  });
});

describe('Telegram init data', () => {
  let nextTelegramId = 700_000_000 + Math.floor(Math.random() * 100_000_000);
  const profile = () =>
    JSON.stringify({
      id: nextTelegramId++,
      first_name: 'Ada',
      language_code: 'en',
      allows_write_to_pm: true,
    });
  const fields = (overrides: Record<string, string> = {}) => ({
    query_id: 'AAHdF6IQAAAAAN0XohDhrOrc',
    user: profile(),
    auth_date: String(nowSeconds() - 5),
    ...overrides,
  });
  /** Telegram's algorithm, written out here independently of the server's: HMAC of the sorted fields. */
  const hashOf = (data: Record<string, string>, botToken = telegram.token) =>
    createHmac('sha256', createHmac('sha256', 'WebAppData').update(botToken).digest())
      .update(
        Object.entries(data)
          .map(([key, value]) => `${key}=${value}`)
          .sort()
          .join('\n'),
      )
      .digest('hex');
  const signed = (data: Record<string, string>, botToken?: string) =>
    new URLSearchParams({ ...data, hash: hashOf(data, botToken) }).toString();
  /**
   * A genuine Ed25519 `signature` as Bot API 8.0 clients send it (over `<bot id>:WebAppData` and
   * the fields but hash and signature), here under a key of our own: the server never relies on it.
   */
  const ed25519 = generateKeyPairSync('ed25519');
  const signatureOf = (data: Record<string, string>) => {
    const botId = telegram.token.split(':')[0];
    const lines = Object.entries(data)
      .filter(([key]) => key !== 'signature')
      .map(([key, value]) => `${key}=${value}`)
      .sort();
    return signBytes(
      null,
      Buffer.from([`${botId}:WebAppData`, ...lines].join('\n')),
      ed25519.privateKey,
    ).toString('base64url');
  };
  const withSignature = (data: Record<string, string>) => ({ ...data, signature: signatureOf(data) });

  const INVALID = {
    status: 401,
    body: { detail: 'Telegram init data is invalid.', code: 'auth.init_data_invalid' },
  };
  const EXPIRED = {
    status: 401,
    body: { detail: 'Telegram init data has expired.', code: 'auth.init_data_expired' },
  };
  const OK = { status: 200 };
  const cases: Array<[string, () => string, { status: number; body?: object }]> = [
    ['signed by the bot (baseline)', () => signed(fields()), OK],
    [
      'signed by the bot with the library Telegram apps use (baseline)',
      () => signWithLibrary({ user: JSON.parse(profile()) } as never, telegram.token, new Date()),
      OK,
    ],
    [
      'a Bot API 8.0 client’s: hash over every field, signature included (baseline)',
      () => signed(withSignature(fields())),
      OK,
    ],
    [
      'a wrong hash',
      () =>
        signed(fields()).replace(/hash=[0-9a-f]/, (m) =>
          m.endsWith('0') ? `${m.slice(0, -1)}1` : `${m.slice(0, -1)}0`,
        ),
      INVALID,
    ],
    ['no hash at all', () => new URLSearchParams(fields()).toString(), INVALID],
    ['an empty hash', () => new URLSearchParams({ ...fields(), hash: '' }).toString(), INVALID],
    ['signed with another bot’s token', () => signed(fields(), '123456:another-bots-token'), INVALID],
    [
      'auth_date older than the max age',
      () => signed(fields({ auth_date: String(nowSeconds() - INIT_DATA_MAX_AGE - 60) })),
      EXPIRED,
    ],
    [
      'a tampered user field under the original hash',
      () => {
        const genuine = fields();
        const hash = hashOf(genuine);
        const user = { ...JSON.parse(genuine.user), id: 42 };
        return new URLSearchParams({ ...genuine, user: JSON.stringify(user), hash }).toString();
      },
      INVALID,
    ],
    [
      'a tampered auth_date under the original hash (making stale data fresh)',
      () => {
        const stale = fields({ auth_date: String(nowSeconds() - INIT_DATA_MAX_AGE - 60) });
        return new URLSearchParams({
          ...stale,
          auth_date: String(nowSeconds()),
          hash: hashOf(stale),
        }).toString();
      },
      INVALID,
    ],
    [
      'a valid signature field but a bad hash',
      () => {
        const data = withSignature(fields());
        return new URLSearchParams({ ...data, hash: hashOf(data, '123456:another-bots-token') }).toString();
      },
      INVALID,
    ],
    [
      'a valid signature field and no hash',
      () => new URLSearchParams(withSignature(fields())).toString(),
      INVALID,
    ],
    [
      'a signature field added to data the hash was computed without',
      () => {
        const data = fields();
        return new URLSearchParams({ ...data, signature: signatureOf(data), hash: hashOf(data) }).toString();
      },
      INVALID,
    ],
    [
      'the user field given twice, the first signed',
      () => `${signed(fields())}&user=${encodeURIComponent(JSON.stringify({ id: 42, first_name: 'Eve' }))}`,
      INVALID,
    ],
  ];

  it.each(cases)('%s, in the Authorization header', async (_label, make, expected) => {
    const response = await me({ authorization: `TG ${make()}` });
    expect(response.statusCode, response.body).toBe(expected.status);
    if (expected.body) expect(response.json()).toEqual(expected.body);
  });

  it.each(cases)('%s, exchanged at /api/auth/base/', async (_label, make, expected) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/base/',
      payload: { init_data: make() },
    });
    expect(response.statusCode, response.body).toBe(expected.status);
    if (expected.body) expect(response.json()).toEqual(expected.body);
  });
});

describe('the Telegram webhook', () => {
  const webhook = (payload: object, headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: '/api/tg/webhook/', headers, payload });
  const startSignIn = async () => {
    const { uuid, link } = (await t.app.inject({ method: 'POST', url: '/api/tg/create_auth_key/' })).json();
    return { uuid: uuid as string, key: new URL(link as string).searchParams.get('start')! };
  };
  const statusOf = async (uuid: string) =>
    (await t.app.inject({ method: 'GET', url: `/api/tg/get_token/?uuid=${uuid}` })).json().status;
  const queuedJobs = async () =>
    (
      (await t.deps.db.execute(sql`SELECT count(*)::int AS n FROM graphile_worker.jobs`)).rows[0] as {
        n: number;
      }
    ).n;

  it.each([
    ['no secret header', {}],
    ['a wrong secret', { 'x-telegram-bot-api-secret-token': `${WEBHOOK_SECRET}x` }],
    ['the secret in another case', { 'x-telegram-bot-api-secret-token': WEBHOOK_SECRET.toLowerCase() }],
    ['an empty secret', { 'x-telegram-bot-api-secret-token': '' }],
  ])('refuses %s with 403 and acts on nothing', async (_label, headers: Record<string, string>) => {
    const { uuid, key } = await startSignIn();
    const response = await webhook(telegram.startUpdate({ payload: key }), headers);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ detail: 'Forbidden.', code: 'telegram.webhook_forbidden' });
    expect(await statusOf(uuid)).toBe('pending');
  });

  it('applies a replayed update_id once, even when the replay carries another body', async () => {
    const secret = { 'x-telegram-bot-api-secret-token': WEBHOOK_SECRET };
    const first = await startSignIn();
    const second = await startSignIn();
    const update = telegram.startUpdate({ payload: first.key });
    const jobsBefore = await queuedJobs();
    expect((await webhook(update, secret)).statusCode).toBe(200);
    expect(await statusOf(first.uuid)).toBe('confirmed');
    expect(await queuedJobs()).toBe(jobsBefore + 1);

    expect((await webhook(update, secret)).statusCode).toBe(200);
    const altered = { ...update, message: { ...update.message!, text: `/start ${second.key}` } };
    expect((await webhook(altered, secret)).statusCode).toBe(200);
    expect(await queuedJobs()).toBe(jobsBefore + 1);
    expect(await statusOf(second.uuid)).toBe('pending');
  });
});

describe('Google ID tokens', () => {
  const signIn = (credential: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/google/', payload: { credential } });
  const expired = nowSeconds() - 3600;
  const cases: Array<[string, () => Promise<string>, number]> = [
    ['a genuine token (baseline)', () => google.signIdToken({ email: uniqueEmail('google') }), 200],
    ['a wrong audience', () => google.signIdToken({ aud: 'another-app.apps.googleusercontent.com' }), 401],
    ['a wrong issuer', () => google.signIdToken({ iss: 'https://accounts.example.com' }), 401],
    ['an expired token', () => google.signIdToken({ iat: expired - 3600, exp: expired }), 401],
    ['an unknown kid', () => google.signIdToken({}, { kid: 'f'.repeat(40) }), 401],
    [
      'a published kid over another key’s signature',
      () => google.signIdToken({}, { key: google.unpublishedKey }),
      401,
    ],
    [
      'a tampered subject under the original signature',
      async () => {
        const [header, payload, signature] = (await google.signIdToken()).split('.');
        const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
        return `${header}.${base64url({ ...claims, sub: '1' })}.${signature}`;
      },
      401,
    ],
    [
      'alg none',
      async () => {
        const [, payload] = (await google.signIdToken()).split('.');
        return `${base64url({ alg: 'none', kid: google.publishedKids().at(-1) })}.${payload}.`;
      },
      401,
    ],
  ];
  it.each(cases)('%s', async (_label, make, status) => {
    const response = await signIn(await make());
    expect(response.statusCode, response.body).toBe(status);
    if (status === 401) {
      expect(response.json()).toEqual({ detail: 'Invalid Google credential.', code: 'auth.google_invalid' });
    }
  });
});

describe('emailed links', () => {
  const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, payload });
  async function linkFor(email: string, route: 'activate' | 'reset-pass') {
    await t.runJobs();
    const mail = (await t.readOutbox()).filter((m) => m.to === email).at(-1);
    const match = new RegExp(`/${route}/([^/\\s]+)/([^/\\s]+)`).exec(mail?.text ?? '');
    if (!match) throw new Error(`no /${route}/ link to ${email}`);
    return { uid: match[1]!, token: match[2]! };
  }
  const registered = async () => {
    const email = uniqueEmail('link');
    expect((await post('/api/users/', { email, password: 'Blue-Otter-73' })).statusCode).toBe(201);
    return { email, link: await linkFor(email, 'activate') };
  };
  const resetRequested = async () => {
    const user = await createActiveUser(t);
    expect((await post('/api/users/reset_password/', { email: user.email! })).statusCode).toBe(204);
    return { email: user.email!, link: await linkFor(user.email!, 'reset-pass') };
  };
  const flipLast = (token: string) => token.slice(0, -1) + (token.endsWith('0') ? '1' : '0');
  const activate = (link: { uid: string; token: string }) => post('/api/users/activation/', link);
  const reset = (link: { uid: string; token: string }) =>
    post('/api/users/reset_password_confirm/', { ...link, new_password: 'Fresh-Meadow-88' });
  const ACTIVATION_INVALID = { code: 'users.activation_invalid', token: ['Invalid token for given user.'] };
  const RESET_INVALID = { code: 'users.reset_invalid', token: ['Invalid token for given user.'] };

  it('activation: a genuine link works once; used twice it is refused as stale', async () => {
    const { link } = await registered();
    const first = await activate(link);
    // Activation signs the person in: the answer carries a fresh pair of tokens.
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ refresh: expect.any(String), access: expect.any(String), created: true });
    const again = await activate(link);
    expect(again.statusCode).toBe(403);
    expect(again.json()).toEqual({ detail: 'Stale token for given user.', code: 'users.activation_stale' });
  });

  it.each([
    ['a tampered token', (l: { uid: string; token: string }) => ({ ...l, token: flipLast(l.token) })],
    ['a tampered timestamp', (l: { uid: string; token: string }) => ({ ...l, token: `1${l.token}` })],
    ['another account’s token under this uid', null],
    ['an expired link', 'expire' as const],
  ])('activation: %s is refused and activates nothing', async (_label, change) => {
    const { email, link } = await registered();
    let sent = link;
    if (change === null) {
      const other = await registered();
      sent = { uid: link.uid, token: other.link.token };
    } else if (change === 'expire') {
      t.setNow(new Date(Date.now() + (t.deps.config.tokens.activationSeconds + 60) * 1000));
    } else {
      sent = change(link);
    }
    const response = await activate(sent);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual(ACTIVATION_INVALID);
    expect((await usersRepository.findByEmail(t.deps.db, email))!.isActive).toBe(false);
  });

  it('password reset: a genuine link works once; used twice it is refused', async () => {
    const { link } = await resetRequested();
    expect((await reset(link)).statusCode).toBe(204);
    const again = await reset(link);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual(RESET_INVALID);
  });

  it.each([
    ['a tampered token', (l: { uid: string; token: string }) => ({ ...l, token: flipLast(l.token) })],
    ['a tampered timestamp', (l: { uid: string; token: string }) => ({ ...l, token: `1${l.token}` })],
    ['another account’s token under this uid', null],
    ['an expired link', 'expire' as const],
  ])('password reset: %s is refused and changes no password', async (_label, change) => {
    const { email, link } = await resetRequested();
    const before = (await usersRepository.findByEmail(t.deps.db, email))!.passwordHash;
    let sent = link;
    if (change === null) {
      const other = await resetRequested();
      sent = { uid: link.uid, token: other.link.token };
    } else if (change === 'expire') {
      t.setNow(new Date(Date.now() + (t.deps.config.tokens.passwordResetSeconds + 60) * 1000));
    } else {
      sent = change(link);
    }
    const response = await reset(sent);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual(RESET_INVALID);
    expect((await usersRepository.findByEmail(t.deps.db, email))!.passwordHash).toBe(before);
  });
});
