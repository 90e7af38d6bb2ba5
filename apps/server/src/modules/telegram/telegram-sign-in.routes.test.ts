import { sign } from '@telegram-apps/init-data-node';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  startTelegramBotApiFake,
  type FakeTelegramUser,
  type TelegramBotApiFake,
} from '../../fakes/telegram-bot-api.fake.js';
import { telegramAuthKeys, telegramUpdates, users } from '../../shared/db/schema.js';
import { translate } from '../../shared/i18n/messages.js';
import { bearer, createActiveUser, login } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { usersRepository } from '../users/users.repository.js';
import { setupTelegramBot } from './telegram-setup.usecases.js';

// Web sign-in through the bot, end to end over real HTTP: the app listens on 127.0.0.1, the fake
// Bot API delivers "Start" presses to the webhook registered by the real setup code, and the
// bot's replies go out through the real client when the jobs run.
const WEBHOOK_SECRET = 'sign-in-suite_Secret-0123456789';

let fake: TelegramBotApiFake;
let t: TestApp;
beforeAll(async () => {
  fake = await startTelegramBotApiFake({ botUsername: 'mirra_signin_bot' });
  t = await createTestApp({
    env: { ...fake.env, TELEGRAM_WEBHOOK_SECRET: WEBHOOK_SECRET, PUBLIC_URL: 'https://mirra.test' },
  });
  const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  await setupTelegramBot({ config: t.deps.config, webhookUrl: `${address}/api/tg/webhook/` });
});
afterAll(async () => {
  await t?.close();
  await fake.close();
});
afterEach(async () => {
  t.setNow(undefined);
  // Each test looks only at its own messages; nothing may be left for the next one.
  await runJobs();
  fake.clearCalls();
});

const createKey = (headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/tg/create_auth_key/', headers });
const getToken = (uuid: string) => t.app.inject({ method: 'GET', url: `/api/tg/get_token/?uuid=${uuid}` });
const me = (access: string) =>
  t.app.inject({ method: 'GET', url: '/api/users/me/', headers: bearer(access) });
const webhook = (payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/tg/webhook/', headers, payload: payload as object });

/** Asks for a key and returns the uuid to poll with and the key from the t.me link. */
async function startSignIn(headers: Record<string, string> = {}) {
  const response = await createKey(headers);
  expect(response.statusCode).toBe(200);
  const { uuid, link } = response.json() as { uuid: string; link: string };
  const key = new URL(link).searchParams.get('start')!;
  return { uuid, link, key };
}
/**
 * Runs the due jobs and waits until their outcome is written: graphile-worker 0.17 records a job's
 * completion or failure without awaiting it, so runOnce may return a moment before.
 */
async function runJobs() {
  await t.runJobs();
  await vi.waitFor(
    async () => {
      const result = await t.deps.db.execute(
        sql`SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE locked_at IS NOT NULL`,
      );
      expect((result.rows[0] as { n: number }).n).toBe(0);
    },
    { timeout: 5000, interval: 20 },
  );
}
const textsTo = (user: FakeTelegramUser) => fake.sentMessages(user.id).map((m) => m.text);
const queuedJobs = async () => {
  const result = await t.deps.db.execute(sql`SELECT count(*)::int AS n FROM graphile_worker.jobs`);
  return (result.rows[0] as { n: number }).n;
};

describe('POST /api/tg/create_auth_key/', () => {
  it('answers {uuid, link, expires_in} with a t.me start link carrying a fresh key', async () => {
    const response = await createKey({ 'content-type': 'application/json' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['expires_in', 'link', 'uuid']);
    expect(body.expires_in).toBe(300);
    const match = /^https:\/\/t\.me\/mirra_signin_bot\?start=([A-Za-z0-9_-]+)$/.exec(body.link);
    expect(match).not.toBeNull();
    const key = match![1]!;
    expect(key.length).toBeLessThanOrEqual(64);

    // Only the key's hash is stored; two requests never share a key.
    const [row] = await t.deps.db.select().from(telegramAuthKeys).where(eq(telegramAuthKeys.uuid, body.uuid));
    expect(row).toMatchObject({ status: 'pending', requestedByUserId: null, userId: null });
    expect(row!.keyHash).not.toContain(key);
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBeGreaterThan(299_000);
    const other = (await createKey()).json();
    expect(other.uuid).not.toBe(body.uuid);
    expect(other.link).not.toBe(body.link);
  });

  it('is limited per address: past the limit 429 common.throttled, and no more keys are stored', async () => {
    const fromAddress = (remoteAddress: string) =>
      t.app.inject({ method: 'POST', url: '/api/tg/create_auth_key/', remoteAddress });
    const keyCount = async () =>
      (await t.deps.db.select({ n: sql<number>`count(*)::int` }).from(telegramAuthKeys))[0]!.n;
    const { telegramAuthKeyPerIp: limit, windowSeconds } = t.deps.config.rateLimits;
    for (let i = 0; i < limit; i++) expect((await fromAddress('203.0.113.7')).statusCode).toBe(200);
    const before = await keyCount();
    const refused = await fromAddress('203.0.113.7');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'common.throttled' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(windowSeconds);
    expect(await keyCount()).toBe(before);
    // Another address is not held back.
    expect((await fromAddress('203.0.113.8')).statusCode).toBe(200);
  });
});

describe('GET /api/tg/get_token/', () => {
  it('is pending with null tokens until Start is pressed', async () => {
    const { uuid } = await startSignIn();
    const response = await getToken(uuid);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'pending',
      token: null,
      refresh: null,
      access: null,
      created: false,
    });
  });

  it('answers a malformed uuid with a field error and an unknown one with 404', async () => {
    const malformed = await getToken('not-a-uuid');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ uuid: ['Enter a valid UUID.'], code: 'common.validation' });
    const missing = await t.app.inject({ method: 'GET', url: '/api/tg/get_token/' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ uuid: [expect.any(String)], code: 'common.validation' });
    const unknown = await getToken('6f1c2a8e-8a51-4b9e-9d2c-0c6c5b1e7a10');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ detail: 'Not found.', code: 'telegram.auth_key_unknown' });
  });
});

describe('POST /api/tg/webhook/', () => {
  it('refuses a missing or wrong secret with 403, before looking at the body', async () => {
    const update = fake.startUpdate({ payload: 'whatever' });
    const attempts: Array<Record<string, string>> = [
      {},
      { 'x-telegram-bot-api-secret-token': '' },
      { 'x-telegram-bot-api-secret-token': WEBHOOK_SECRET.toLowerCase() },
      { 'x-telegram-bot-api-secret-token': `${WEBHOOK_SECRET}x` },
    ];
    for (const headers of attempts) {
      const response = await webhook(update, headers);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ detail: 'Forbidden.', code: 'telegram.webhook_forbidden' });
    }
    const garbage = await webhook({ nonsense: true });
    expect(garbage.statusCode).toBe(403);
    // Nothing was recorded: a later genuine delivery of this update is still applied.
    const [seen] = await t.deps.db
      .select()
      .from(telegramUpdates)
      .where(eq(telegramUpdates.updateId, update.update_id));
    expect(seen).toBeUndefined();
  });

  it('acknowledges updates it does not act on, and queues nothing for them', async () => {
    const user = fake.newUser();
    const plain = fake.startUpdate({ user });
    plain.message!.text = 'hello bot';
    const group = fake.startUpdate({ user });
    group.message!.chat = { id: -100123, type: 'group', title: 'Friends' };
    const fromBot = fake.startUpdate({ user: { id: 1234 } });
    (fromBot.message!.from as { is_bot: boolean }).is_bot = true;
    const others = [
      { update_id: plain.update_id + 1000, edited_message: plain.message },
      {
        update_id: plain.update_id + 1001,
        pre_checkout_query: { id: '1', from: user, currency: 'XTR', total_amount: 1, invoice_payload: 'x' },
      },
    ];
    for (const update of [plain, group, fromBot, ...others]) {
      const delivery = await fake.deliverUpdate(update);
      expect(delivery.status, JSON.stringify(update).slice(0, 60)).toBe(200);
      expect(JSON.parse(delivery.body)).toEqual({ ok: true });
    }
    expect(await queuedJobs()).toBe(0);
  });

  it('answers 400 to an update without update_id (Telegram never sends one)', async () => {
    const response = await webhook({ message: {} }, { 'x-telegram-bot-api-secret-token': WEBHOOK_SECRET });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'common.validation' });
  });
});

describe('signing in to the web through the bot', () => {
  it('binds /start <key> to the Telegram user, replies in their language, and hands the tokens out once', async () => {
    const { uuid, key } = await startSignIn();
    const user = fake.newUser({
      first_name: 'Иван',
      last_name: 'Петров',
      username: 'ivan_p',
      language_code: 'ru',
    });
    const delivery = await fake.pressStart({ payload: key, user });
    expect(delivery.status).toBe(200);

    const response = await getToken(uuid);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      status: 'confirmed',
      token: expect.any(String),
      access: expect.any(String),
      // This Start made the account: the web shows its onboarding once.
      created: true,
    });
    expect(body.token).toBe(body.refresh);
    const profile = (await me(body.access)).json();
    expect(profile).toMatchObject({
      firstName: 'Иван',
      lastName: 'Петров',
      language: 'ru',
      telegram_linked: true,
      telegram_username: 'ivan_p',
      telegram_allows_write: true,
      email: null,
    });
    const [row] = await t.deps.db.select().from(users).where(eq(users.telegramId, user.id));
    expect(row).toMatchObject({ id: profile.id, isActive: true });
    expect(row!.lastLogin).toBeInstanceOf(Date);

    // Given once: the next poll (a second tab, a replay) gets 410.
    const again = await getToken(uuid);
    expect(again.statusCode).toBe(410);
    expect(again.json()).toEqual({
      detail: 'This sign-in link has expired or was already used.',
      code: 'telegram.auth_key_gone',
    });

    // The reply is sent by the job, through the Bot API, in Russian.
    expect(textsTo(user)).toEqual([]);
    await runJobs();
    expect(textsTo(user)).toEqual([translate('ru', 'bot.signed_in')]);
    expect(textsTo(user)[0]).toMatch(/^Готово!/);
  });

  it('signs a returning Telegram user into the same account (a Mini App user too) and keeps their photo', async () => {
    const user = fake.newUser({ language_code: 'en' });
    const initData = sign(
      {
        user: { ...user, photo_url: 'https://t.me/i/userpic/320/x.svg', allows_write_to_pm: false },
      } as never,
      fake.token,
      new Date(),
    );
    const miniApp = await t.app.inject({
      method: 'GET',
      url: '/api/users/me/',
      headers: { authorization: `TG ${initData}` },
    });
    expect(miniApp.json().telegram_allows_write).toBe(false);

    for (let i = 0; i < 2; i++) {
      const { uuid, key } = await startSignIn();
      await fake.pressStart({ payload: key, user });
      const tokens = (await getToken(uuid)).json();
      // The Mini App made the account before: this web sign-in is not a new person's.
      expect(tokens.created).toBe(false);
      const profile = (await me(tokens.access)).json();
      expect(profile).toMatchObject({ id: miniApp.json().id, telegram_allows_write: true });
    }
    const rows = await t.deps.db.select().from(users).where(eq(users.telegramId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.telegramPhotoUrl).toBe('https://t.me/i/userpic/320/x.svg');
  });

  it('refuses an expired key: 410 on poll, and the bot says so in the user’s language', async () => {
    const { uuid, key } = await startSignIn();
    t.setNow(new Date(Date.now() + 301_000));
    const expiredPoll = await getToken(uuid);
    expect(expiredPoll.statusCode).toBe(410);
    expect(expiredPoll.json().code).toBe('telegram.auth_key_gone');

    const user = fake.newUser({ language_code: 'de' });
    expect((await fake.pressStart({ payload: key, user })).status).toBe(200);
    expect((await getToken(uuid)).statusCode).toBe(410);
    expect(await t.deps.db.select().from(users).where(eq(users.telegramId, user.id))).toEqual([]);
    await runJobs();
    expect(textsTo(user)).toEqual([translate('de', 'bot.link_expired')]);
  });

  it('uses a key once: a second Start (same or another person) changes nothing', async () => {
    const { uuid, key } = await startSignIn();
    const owner = fake.newUser();
    const intruder = fake.newUser({ language_code: 'uk' });
    await fake.pressStart({ payload: key, user: owner });
    await fake.pressStart({ payload: key, user: intruder });
    await fake.pressStart({ payload: key, user: owner });
    const tokens = (await getToken(uuid)).json();
    const profile = (await me(tokens.access)).json();
    const [ownerRow] = await t.deps.db.select().from(users).where(eq(users.telegramId, owner.id));
    expect(profile.id).toBe(ownerRow!.id);
    expect(await t.deps.db.select().from(users).where(eq(users.telegramId, intruder.id))).toEqual([]);
    await runJobs();
    expect(textsTo(owner)).toEqual([translate('en', 'bot.signed_in'), translate('en', 'bot.link_expired')]);
    expect(textsTo(intruder)).toEqual([translate('uk', 'bot.link_expired')]);
    // And pressing Start with a consumed key is no way back in either.
    await fake.pressStart({ payload: key, user: owner });
    expect((await getToken(uuid)).statusCode).toBe(410);
  });

  it('applies a re-delivered update (same update_id) once', async () => {
    const { uuid, key } = await startSignIn();
    const user = fake.newUser();
    const update = fake.startUpdate({ payload: key, user });
    const first = await fake.deliverUpdate(update);
    const second = await fake.deliverUpdate(update);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(await queuedJobs()).toBe(1);
    expect((await getToken(uuid)).json().status).toBe('confirmed');
    await runJobs();
    expect(textsTo(user)).toEqual([translate('en', 'bot.signed_in')]);
    expect(fake.calls('sendMessage')).toHaveLength(1);
  });

  it('treats a Bearer token that no longer works as no sign-in at all', async () => {
    const { uuid } = await startSignIn(bearer('not-a-token'));
    const [row] = await t.deps.db.select().from(telegramAuthKeys).where(eq(telegramAuthKeys.uuid, uuid));
    expect(row!.requestedByUserId).toBeNull();
  });
});

describe('linking Telegram to a signed-in account', () => {
  it('links the Telegram user to the account that asked, instead of signing in another', async () => {
    const account = await createActiveUser(t, { firstName: 'Grace' });
    const { access } = await login(t, account.email!);
    expect((await me(access)).json().telegram_linked).toBe(false);

    const { uuid, key } = await startSignIn(bearer(access));
    const user = fake.newUser({ username: 'grace_h', language_code: 'uk' });
    expect((await fake.pressStart({ payload: key, user })).status).toBe(200);

    expect((await me(access)).json()).toMatchObject({
      id: account.id,
      firstName: 'Grace',
      email: account.email,
      telegram_linked: true,
      telegram_username: 'grace_h',
      telegram_allows_write: true,
    });
    const rows = await t.deps.db.select().from(users).where(eq(users.telegramId, user.id));
    expect(rows.map((r) => r.id)).toEqual([account.id]);
    // The poll confirms it too, with a session of the same account.
    const tokens = (await getToken(uuid)).json();
    expect((await me(tokens.access)).json().id).toBe(account.id);
    expect(tokens.created).toBe(false);
    await runJobs();
    expect(textsTo(user)).toEqual([translate('uk', 'bot.linked')]);

    // From now on the Mini App (same Telegram id) opens this very account.
    const initData = sign({ user } as never, fake.token, new Date());
    const miniApp = await t.app.inject({
      method: 'GET',
      url: '/api/users/me/',
      headers: { authorization: `TG ${initData}` },
    });
    expect(miniApp.json().id).toBe(account.id);
  });

  it('refuses a Telegram id that already belongs to another account: one person, one account', async () => {
    const telegramOwner = fake.newUser({ language_code: 'az' });
    const first = await startSignIn();
    await fake.pressStart({ payload: first.key, user: telegramOwner });
    const ownerId = (await me((await getToken(first.uuid)).json().access)).json().id;
    await runJobs();
    fake.clearCalls();

    const account = await createActiveUser(t);
    const { access } = await login(t, account.email!);
    const { uuid, key } = await startSignIn(bearer(access));
    await fake.pressStart({ payload: key, user: telegramOwner });

    expect((await me(access)).json()).toMatchObject({ id: account.id, telegram_linked: false });
    const rows = await t.deps.db.select().from(users).where(eq(users.telegramId, telegramOwner.id));
    expect(rows.map((r) => r.id)).toEqual([ownerId]);
    expect((await getToken(uuid)).json().status).toBe('pending');
    await runJobs();
    expect(textsTo(telegramOwner)).toEqual([translate('az', 'bot.identity_taken')]);
  });
});

describe('bot replies', () => {
  it('greets a plain /start with a button that opens the app, and notes the bot may write', async () => {
    const user = fake.newUser({ language_code: 'kk' });
    const initData = sign({ user } as never, fake.token, new Date());
    const created = await t.app.inject({
      method: 'GET',
      url: '/api/users/me/',
      headers: { authorization: `TG ${initData}` },
    });
    expect(created.json().telegram_allows_write).toBe(false);

    expect((await fake.pressStart({ user })).status).toBe(200);
    const [row] = await t.deps.db.select().from(users).where(eq(users.telegramId, user.id));
    expect(row!.telegramAllowsWrite).toBe(true);
    await runJobs();
    const [message] = fake.sentMessages(user.id);
    expect(message).toMatchObject({
      text: translate('kk', 'bot.welcome'),
      reply_markup: {
        inline_keyboard: [
          [{ text: translate('kk', 'bot.open_app'), web_app: { url: 'https://mirra.test/' } }],
        ],
      },
    });
  });

  it('greets /start with a payload that is not a key (a referral, a campaign), and an unknown language in English', async () => {
    const user = fake.newUser({ language_code: 'pt-br' });
    await fake.pressStart({ payload: 'ref_abcd2345', user });
    await fake.pressStart({ payload: 'promo_spring', user });
    await runJobs();
    expect(textsTo(user)).toEqual([translate('en', 'bot.welcome'), translate('en', 'bot.welcome')]);
  });

  it('gives up on a user who blocked the bot without failing the job, and remembers it', async () => {
    const { uuid, key } = await startSignIn();
    const user = fake.newUser();
    await fake.pressStart({ payload: key, user });
    const tokens = (await getToken(uuid)).json();
    expect((await me(tokens.access)).json().telegram_allows_write).toBe(true);

    fake.blockChat(user.id);
    await runJobs();
    expect(fake.calls('sendMessage').map((c) => c.status)).toEqual([403]);
    expect(await queuedJobs()).toBe(0);
    expect((await me(tokens.access)).json().telegram_allows_write).toBe(false);
    fake.unblockChat(user.id);
  });

  it('waits out a short flood-control pause (429 retry_after) and sends', async () => {
    const user = fake.newUser();
    await fake.pressStart({ user });
    fake.rateLimitNext(1, 1);
    const started = Date.now();
    await runJobs();
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(fake.calls('sendMessage').map((c) => c.status)).toEqual([429, 200]);
    expect(textsTo(user)).toEqual([translate('en', 'bot.welcome')]);
  });

  it('leaves a long flood-control pause to the queue’s retries', async () => {
    const user = fake.newUser();
    await fake.pressStart({ user });
    fake.rateLimitNext(1, 60);
    await runJobs();
    expect(fake.calls('sendMessage').map((c) => c.status)).toEqual([429]);
    const result = await t.deps.db.execute(
      sql`SELECT attempts, last_error FROM graphile_worker.jobs WHERE task_identifier = 'telegram:send_message'`,
    );
    expect(result.rows).toEqual([
      { attempts: 1, last_error: expect.stringMatching(/429 Too Many Requests/) },
    ]);
    // Clean up: let it run now.
    await t.deps.db.execute(sql`UPDATE graphile_worker._private_jobs SET run_at = now()`);
    await runJobs();
    expect(textsTo(user)).toEqual([translate('en', 'bot.welcome')]);
  });
});

describe('an account deactivated after signing in with the bot', () => {
  it('gets no new Mini App session', async () => {
    const { uuid, key } = await startSignIn();
    const user = fake.newUser();
    await fake.pressStart({ payload: key, user });
    const profile = (await me((await getToken(uuid)).json().access)).json();
    await usersRepository.update(t.deps.db, profile.id, t.deps.now(), { isActive: false });
    const initData = sign({ user } as never, fake.token, new Date());
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/base/',
      payload: { init_data: initData },
    });
    expect(response.statusCode).toBe(401);
  });
});
