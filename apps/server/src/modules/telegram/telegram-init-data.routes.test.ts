import { sign } from '@telegram-apps/init-data-node';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTelegramBotApiFake, type TelegramBotApiFake } from '../../fakes/telegram-bot-api.fake.js';
import { users } from '../../shared/db/schema.js';
import { bearer, createActiveUser } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { usersRepository } from '../users/users.repository.js';

// Mini App sign-in: `Authorization: TG <initData>` on any route, and POST /api/auth/base/.
const MAX_AGE = 600;
const WEBHOOK_SECRET = 'init-data-suite_secret';

let fake: TelegramBotApiFake;
let t: TestApp;
beforeAll(async () => {
  fake = await startTelegramBotApiFake();
  t = await createTestApp({
    env: {
      ...fake.env,
      TELEGRAM_WEBHOOK_SECRET: WEBHOOK_SECRET,
      TELEGRAM_INIT_DATA_MAX_AGE: String(MAX_AGE),
    },
  });
});
afterAll(async () => {
  await t?.close();
  await fake.close();
});

let nextTelegramId = 500_000_000 + Math.floor(Math.random() * 100_000_000);
/** A Mini App user as Telegram puts it in init data. */
const telegramUser = (overrides: Record<string, unknown> = {}) => ({
  id: nextTelegramId++,
  first_name: 'Ада',
  last_name: 'Лавлейс',
  username: 'ada_l',
  language_code: 'ru',
  is_premium: true,
  allows_write_to_pm: true,
  photo_url: 'https://t.me/i/userpic/320/ada.svg',
  ...overrides,
});
/** Init data as the Mini App gets it, signed with the bot token `ageSeconds` ago. */
const initData = (data: Record<string, unknown>, options: { ageSeconds?: number; token?: string } = {}) =>
  sign(
    { query_id: 'AAHdF6IQAAAAAN0XohDhrOrc', ...data } as Parameters<typeof sign>[0],
    options.token ?? fake.token,
    new Date(Date.now() - (options.ageSeconds ?? 5) * 1000),
  );

const tg = (raw: string) => ({ authorization: `TG ${raw}` });
const me = (app: TestApp, headers: Record<string, string>) =>
  app.app.inject({ method: 'GET', url: '/api/users/me/', headers });
const base = (app: TestApp, options: { headers?: Record<string, string>; payload?: unknown } = {}) =>
  app.app.inject({
    method: 'POST',
    url: '/api/auth/base/',
    headers: options.headers,
    ...(options.payload !== undefined ? { payload: options.payload as object } : {}),
  });
const rowsByTelegramId = (id: number) => t.deps.db.select().from(users).where(eq(users.telegramId, id));

const INVALID = { detail: 'Telegram init data is invalid.', code: 'auth.init_data_invalid' };
const EXPIRED = { detail: 'Telegram init data has expired.', code: 'auth.init_data_expired' };

describe('Authorization: TG <initData>', () => {
  it('creates the user on first sight, with the Telegram profile and write permission', async () => {
    const user = telegramUser();
    const response = await me(t, tg(initData({ user })));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      email: null,
      firstName: 'Ада',
      lastName: 'Лавлейс',
      language: 'ru',
      registered: false,
      referer: null,
      telegram_linked: true,
      telegram_username: 'ada_l',
      telegram_allows_write: true,
      google_linked: false,
    });
    const [row] = await rowsByTelegramId(user.id);
    expect(row).toMatchObject({
      id: response.json().id,
      isActive: true,
      passwordHash: null,
      telegramPhotoUrl: 'https://t.me/i/userpic/320/ada.svg',
      telegramAllowsWrite: true,
    });
  });

  it('signs in a Telegram user whose name holds control characters, kept without them', async () => {
    const user = telegramUser({
      first_name: 'A\u0000da\u0007',
      last_name: 'Love\nlace',
      username: 'ada\u0000_x',
    });
    const response = await me(t, tg(initData({ user })));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      telegram_username: 'ada_x',
    });
  });

  it('finds the same user with the same init data again (the Mini App resends it on every call)', async () => {
    const user = telegramUser();
    const raw = initData({ user });
    const first = await me(t, tg(raw));
    const second = await me(t, tg(raw));
    // tma.js sends the `tma` scheme; it is the same thing.
    const third = await me(t, { authorization: `tma ${raw}` });
    for (const response of [first, second, third]) expect(response.statusCode).toBe(200);
    expect(second.json().id).toBe(first.json().id);
    expect(third.json().id).toBe(first.json().id);
    expect(await rowsByTelegramId(user.id)).toHaveLength(1);
  });

  it('keeps Telegram-owned fields current but leaves the name the user may have edited', async () => {
    const user = telegramUser({ allows_write_to_pm: true });
    const created = (await me(t, tg(initData({ user })))).json();
    const later = {
      ...user,
      first_name: 'Changed in Telegram',
      username: 'ada_renamed',
      photo_url: 'https://t.me/i/userpic/320/new.svg',
      allows_write_to_pm: false,
    };
    const response = await me(t, tg(initData({ user: later })));
    expect(response.json()).toMatchObject({
      id: created.id,
      firstName: 'Ада',
      telegram_username: 'ada_renamed',
      telegram_allows_write: false,
    });
    // Absent fields say nothing: no username now means none; no photo or permission means unknown.
    const { username: _u, photo_url: _p, allows_write_to_pm: _a, ...bare } = later;
    const again = await me(t, tg(initData({ user: bare })));
    expect(again.json()).toMatchObject({
      id: created.id,
      telegram_username: null,
      telegram_allows_write: false,
    });
    const rows = await rowsByTelegramId(user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.telegramPhotoUrl).toBe('https://t.me/i/userpic/320/new.svg');
  });

  it('refuses tampered init data with 401 auth.init_data_invalid', async () => {
    const user = telegramUser({ first_name: 'Mallory' });
    const raw = initData({ user });
    const tampered = [
      raw.replace('Mallory', 'Mallorx'),
      raw.replace(/hash=[0-9a-f]{4}/, 'hash=0000'),
      raw.replace(/&hash=[0-9a-f]+/, ''),
      `${raw}&start_param=ref_abcd2345`,
      initData({ user }, { token: `${fake.bot.id}:another-bots-token` }),
      'query_id=1&user=%7B%7D&auth_date=1&hash=abc',
      'not init data at all',
    ];
    for (const value of tampered) {
      const response = await me(t, tg(value));
      expect(response.statusCode, value).toBe(401);
      expect(response.json()).toEqual(INVALID);
    }
    const empty = await me(t, { authorization: 'TG ' });
    expect(empty.statusCode).toBe(401);
    expect(empty.json()).toEqual(INVALID);
    expect(await rowsByTelegramId(user.id)).toEqual([]);
  });

  it('refuses init data older than TELEGRAM_INIT_DATA_MAX_AGE with 401 auth.init_data_expired', async () => {
    const user = telegramUser();
    const old = await me(t, tg(initData({ user }, { ageSeconds: MAX_AGE + 5 })));
    expect(old.statusCode).toBe(401);
    expect(old.json()).toEqual(EXPIRED);
    expect(await rowsByTelegramId(user.id)).toEqual([]);

    const fresh = await me(t, tg(initData({ user }, { ageSeconds: MAX_AGE - 30 })));
    expect(fresh.statusCode).toBe(200);
  });

  it('refuses init data dated in the future beyond a few minutes of clock skew: it would never expire', async () => {
    const user = telegramUser();
    const future = await me(t, tg(initData({ user }, { ageSeconds: -86_400 })));
    expect(future.statusCode).toBe(401);
    expect(future.json()).toEqual(INVALID);
    expect(await rowsByTelegramId(user.id)).toEqual([]);
    // A phone whose clock runs a minute ahead still signs in.
    expect((await me(t, tg(initData({ user }, { ageSeconds: -60 })))).statusCode).toBe(200);
  });

  it('replayed init data works until it expires by the app clock, then never again', async () => {
    const raw = initData({ user: telegramUser() }, { ageSeconds: 0 });
    expect((await me(t, tg(raw))).statusCode).toBe(200);
    try {
      t.setNow(new Date(Date.now() + (MAX_AGE - 60) * 1000));
      expect((await me(t, tg(raw))).statusCode).toBe(200);
      t.setNow(new Date(Date.now() + (MAX_AGE + 60) * 1000));
      const replayed = await me(t, tg(raw));
      expect(replayed.statusCode).toBe(401);
      expect(replayed.json()).toEqual(EXPIRED);
    } finally {
      t.setNow(undefined);
    }
  });

  it('refuses signed init data without a user', async () => {
    const response = await me(t, tg(initData({ chat_type: 'sender', chat_instance: '-1' })));
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({
      detail: 'Telegram init data has no user.',
      code: 'auth.init_data_invalid',
    });
  });

  it('records the referer from a ref_<code> start_param on the first visit only', async () => {
    const referer = await createActiveUser(t);
    const other = await createActiveUser(t);
    const user = telegramUser();
    const first = await me(t, tg(initData({ user, start_param: `ref_${referer.referralCode}` })));
    expect(first.json().referer).toBe(referer.id);
    // Later visits through someone else's link change nothing.
    const later = await me(t, tg(initData({ user, start_param: `ref_${other.referralCode}` })));
    expect(later.json().referer).toBe(referer.id);

    // Other start parameters and unknown codes are no referral.
    for (const startParam of ['qs_abc', 'ref_nosuchcode', 'ref_']) {
      const response = await me(t, tg(initData({ user: telegramUser(), start_param: startParam })));
      expect(response.statusCode).toBe(200);
      expect(response.json().referer).toBeNull();
    }
  });

  it('keeps a deactivated account out', async () => {
    const user = telegramUser();
    const created = (await me(t, tg(initData({ user })))).json();
    await usersRepository.update(t.deps.db, created.id, t.deps.now(), { isActive: false });
    const response = await me(t, tg(initData({ user })));
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ detail: 'User is inactive.', code: 'auth.invalid_credentials' });
    const exchange = await base(t, { headers: tg(initData({ user })) });
    expect(exchange.statusCode).toBe(401);
  });
});

describe('POST /api/auth/base/', () => {
  it('exchanges init data in the header for {token, refresh, access, created}; token is the refresh token', async () => {
    const user = telegramUser();
    const response = await base(t, { headers: tg(initData({ user })) });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['access', 'created', 'refresh', 'token']);
    expect(body.token).toBe(body.refresh);
    // This first sign-in made the account: the Mini App shows its onboarding once.
    expect(body.created).toBe(true);

    const profile = await me(t, bearer(body.access));
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toMatchObject({ telegram_linked: true, firstName: 'Ада' });
    const [row] = await rowsByTelegramId(user.id);
    expect(row!.id).toBe(profile.json().id);
    expect(row!.lastLogin).toBeInstanceOf(Date);

    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh/',
      payload: { refresh: body.refresh },
    });
    expect(refreshed.statusCode).toBe(200);
    expect(Object.keys(refreshed.json())).toEqual(expect.arrayContaining(['access', 'refresh']));
  });

  it('takes the init data from the body as init_data, and finds the same user as the header did', async () => {
    const user = telegramUser();
    const viaHeader = (await base(t, { headers: tg(initData({ user })) })).json();
    const viaBody = await base(t, { payload: { init_data: initData({ user }) } });
    expect(viaBody.statusCode).toBe(200);
    // The account exists since the first exchange: a returning person is not new.
    expect(viaHeader.created).toBe(true);
    expect(viaBody.json().created).toBe(false);
    const [a, b] = [
      (await me(t, bearer(viaHeader.access))).json(),
      (await me(t, bearer(viaBody.json().access))).json(),
    ];
    expect(b.id).toBe(a.id);
  });

  it('answers missing init data with a field error', async () => {
    const missing = [
      await base(t),
      await base(t, { payload: {} }),
      await base(t, { payload: { init_data: '' } }),
      // Clients send Content-Type: application/json on bodiless POSTs too.
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/base/',
        headers: { 'content-type': 'application/json' },
      }),
      await base(t, { headers: { authorization: 'Bearer something' } }),
    ];
    for (const response of missing) {
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ init_data: ['This field is required.'], code: 'common.validation' });
    }
    const wrongType = await base(t, { payload: { init_data: 42 } });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json()).toMatchObject({ init_data: [expect.any(String)], code: 'common.validation' });
  });

  it('refuses tampered and expired init data as the header does', async () => {
    const raw = initData({ user: telegramUser({ first_name: 'Eve' }) });
    const tampered = await base(t, { payload: { init_data: raw.replace('Eve', 'Eva') } });
    expect(tampered.statusCode).toBe(401);
    expect(tampered.json()).toEqual(INVALID);
    const expired = await base(t, {
      headers: tg(initData({ user: telegramUser() }, { ageSeconds: MAX_AGE + 60 })),
    });
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual(EXPIRED);
  });
});

describe('the research test vector A1', () => {
  let vectorApp: TestApp;
  beforeAll(async () => {
    vectorApp = await createTestApp({
      env: {
        TELEGRAM_BOT_TOKEN: '5768337691:AAH5YkoiEuPk8-FZa32hStHTqXiLPtAEhx8',
        TELEGRAM_API_BASE: fake.url,
        TELEGRAM_INIT_DATA_MAX_AGE: '0',
      },
    });
  });
  afterAll(() => vectorApp?.close());

  it('validates with the vector’s bot token when the max age is 0 (no signature field: a pre-8.0 client)', async () => {
    const vector =
      'query_id=AAHdF6IQAAAAAN0XohDhrOrc&user=%7B%22id%22%3A279058397%2C%22first_name%22%3A%22Vladislav%22%2C%22last_name%22%3A%22Kibenko%22%2C%22username%22%3A%22vdkfrost%22%2C%22language_code%22%3A%22ru%22%2C%22is_premium%22%3Atrue%7D&auth_date=1662771648&hash=c501b71e775f74ce10e377dea85a7ea24ecd640b223ea86dfe453e0eaed2e2b2';
    const response = await me(vectorApp, tg(vector));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      firstName: 'Vladislav',
      lastName: 'Kibenko',
      language: 'ru',
      telegram_username: 'vdkfrost',
      telegram_linked: true,
      // The vector has no allows_write_to_pm: the bot may not write.
      telegram_allows_write: false,
    });
    const tampered = await me(vectorApp, tg(vector.replace('Vladislav', 'Vladimir')));
    expect(tampered.statusCode).toBe(401);
  });
});

describe('a server without a bot', () => {
  let plain: TestApp;
  beforeAll(async () => {
    plain = await createTestApp();
  });
  afterAll(() => plain?.close());

  it('answers Telegram sign-in with 503 auth.telegram_unavailable', async () => {
    const raw = initData({ user: telegramUser() });
    const unavailable = {
      detail: 'Telegram sign-in is not configured on this server.',
      code: 'auth.telegram_unavailable',
    };
    const viaHeader = await me(plain, tg(raw));
    expect(viaHeader.statusCode).toBe(503);
    expect(viaHeader.json()).toEqual(unavailable);
    const viaBase = await base(plain, { payload: { init_data: raw } });
    expect(viaBase.statusCode).toBe(503);
    expect(viaBase.json()).toEqual(unavailable);
    const key = await plain.app.inject({ method: 'POST', url: '/api/tg/create_auth_key/' });
    expect(key.statusCode).toBe(503);
    expect(key.json()).toEqual(unavailable);
  });

  it('refuses every webhook call: with no secret configured nothing can match', async () => {
    for (const headers of [
      {},
      { 'x-telegram-bot-api-secret-token': '' },
      { 'x-telegram-bot-api-secret-token': 'x' },
    ]) {
      const response = await plain.app.inject({
        method: 'POST',
        url: '/api/tg/webhook/',
        headers,
        payload: { update_id: 1 },
      });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ detail: 'Forbidden.', code: 'telegram.webhook_forbidden' });
    }
  });
});

describe('a banned Telegram user', () => {
  it('is refused on every Mini App call and by POST /api/auth/base/, with auth.account_banned', async () => {
    const user = telegramUser();
    const raw = initData({ user });
    expect((await me(t, tg(raw))).statusCode).toBe(200);
    await t.deps.db.update(users).set({ bannedAt: new Date() }).where(eq(users.telegramId, user.id));
    const refused = await me(t, tg(raw));
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ detail: 'This account has been banned.', code: 'auth.account_banned' });
    const session = await base(t, { headers: tg(raw) });
    expect(session.statusCode).toBe(403);
    expect(session.json()).toMatchObject({ code: 'auth.account_banned' });
  });
});
