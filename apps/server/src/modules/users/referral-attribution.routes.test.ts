import { sign } from '@telegram-apps/init-data-node';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGoogleCertsFake, type GoogleCertsFake } from '../../fakes/google-certs.fake.js';
import { startTelegramBotApiFake, type TelegramBotApiFake } from '../../fakes/telegram-bot-api.fake.js';
import { users } from '../../shared/db/schema.js';
import { bearer, createActiveUser, login, uniqueEmail } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { setupTelegramBot } from '../telegram/telegram-setup.usecases.js';
import { usersRepository } from './users.repository.js';

// A partner link followed in the browser leaves a `ref` cookie (30 days, parent domain); whichever
// way the account is then created — email, Google, the bot's web sign-in, the Mini App — the
// partner becomes its referer, once and for good.
const WEBHOOK_SECRET = 'attribution-suite_Secret-0123456789';

let google: GoogleCertsFake;
let bot: TelegramBotApiFake;
let t: TestApp;
beforeAll(async () => {
  google = await startGoogleCertsFake();
  bot = await startTelegramBotApiFake({ botUsername: 'mirra_ref_bot' });
  t = await createTestApp({
    env: {
      ...bot.env,
      TELEGRAM_WEBHOOK_SECRET: WEBHOOK_SECRET,
      GOOGLE_CLIENT_ID: google.clientId,
      GOOGLE_CERTS_URL: google.url,
      PUBLIC_URL: 'https://mirra.test',
    },
  });
  const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  await setupTelegramBot({ config: t.deps.config, webhookUrl: `${address}/api/tg/webhook/` });
});
afterAll(async () => {
  await t?.close();
  await bot?.close();
  await google?.close();
});

const refCookie = (code: string) => ({ cookie: `timezone=-180; ref=${code}` });
const refererOf = async (where: { email?: string; id?: number }) => {
  const [row] = await t.deps.db
    .select({ refererId: users.refererId })
    .from(users)
    .where(where.email ? eq(users.email, where.email) : eq(users.id, where.id!));
  return row?.refererId;
};
let nextTelegramId = 700_000_000 + Math.floor(Math.random() * 100_000_000);

describe('attribution through the partner link', () => {
  it('the reflink leads to the sign-up page with the code', async () => {
    const partner = await createActiveUser(t);
    const { access } = await login(t, partner.email!);
    const me = await t.app.inject({ method: 'GET', url: '/api/users/me/', headers: bearer(access) });
    expect(me.json().reflink).toBe(`https://mirra.test/sign-up/?ref=${partner.referralCode}`);
  });

  it('email registration: the cookie names the referer when the form sends no code', async () => {
    const partner = await createActiveUser(t);
    const email = uniqueEmail('ref-email');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/users/',
      headers: refCookie(partner.referralCode),
      payload: { email, password: 'Blue-Otter-73' },
    });
    expect(response.statusCode).toBe(201);
    expect(await refererOf({ email })).toBe(partner.id);
  });

  it('email registration: a code in the body wins over the cookie (last click), junk is ignored', async () => {
    const first = await createActiveUser(t);
    const second = await createActiveUser(t);
    const email = uniqueEmail('ref-both');
    await t.app.inject({
      method: 'POST',
      url: '/api/users/',
      headers: refCookie(first.referralCode),
      payload: { email, password: 'Blue-Otter-73', referral_code: second.referralCode },
    });
    expect(await refererOf({ email })).toBe(second.id);

    const plain = uniqueEmail('ref-none');
    const none = await t.app.inject({
      method: 'POST',
      url: '/api/users/',
      headers: { cookie: 'ref=%3Cscript%3E' },
      payload: { email: plain, password: 'Blue-Otter-73' },
    });
    expect(none.statusCode).toBe(201);
    expect(await refererOf({ email: plain })).toBeNull();
  });

  it('Google sign-in: the cookie names the referer of the new account', async () => {
    const partner = await createActiveUser(t);
    const email = uniqueEmail('ref-google');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/google/',
      headers: refCookie(partner.referralCode),
      payload: { credential: await google.signIdToken({ email, sub: `sub-${email}` }) },
    });
    expect(response.statusCode).toBe(200);
    expect(await refererOf({ email })).toBe(partner.id);
  });

  it('Telegram sign-in on the web: the key carries the cookie to the account the bot creates', async () => {
    const partner = await createActiveUser(t);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/tg/create_auth_key/',
      headers: refCookie(partner.referralCode),
    });
    expect(created.statusCode).toBe(200);
    const { uuid, link } = created.json() as { uuid: string; link: string };
    const user = bot.newUser();
    await bot.pressStart({ payload: new URL(link).searchParams.get('start')!, user });
    const token = await t.app.inject({ method: 'GET', url: `/api/tg/get_token/?uuid=${uuid}` });
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/users/me/',
      headers: bearer(token.json().access),
    });
    expect(me.json().referer).toBe(partner.id);
  });

  it('Mini App: the signed ref_ start parameter, else the cookie, names the referer', async () => {
    const partner = await createActiveUser(t);
    const other = await createActiveUser(t);
    const initData = (start?: string) =>
      sign(
        {
          user: { id: nextTelegramId++, first_name: 'Ада', allows_write_to_pm: true },
          ...(start ? { start_param: start } : {}),
        } as Parameters<typeof sign>[0],
        bot.token,
        new Date(Date.now() - 5000),
      );
    const viaStart = await t.app.inject({
      method: 'POST',
      url: '/api/auth/base/',
      headers: {
        authorization: `TG ${initData(`ref_${partner.referralCode}`)}`,
        ...refCookie(other.referralCode),
      },
      payload: {},
    });
    expect(viaStart.statusCode).toBe(200);
    const startUser = await t.app.inject({
      method: 'GET',
      url: '/api/users/me/',
      headers: bearer(viaStart.json().access),
    });
    expect(startUser.json().referer).toBe(partner.id);

    const viaCookie = await t.app.inject({
      method: 'GET',
      url: '/api/users/me/',
      headers: { authorization: `TG ${initData()}`, ...refCookie(other.referralCode) },
    });
    expect(viaCookie.json().referer).toBe(other.id);
  });

  it('without a referrer every method signs up as before', async () => {
    const email = uniqueEmail('plain-google');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/google/',
      payload: { credential: await google.signIdToken({ email, sub: `sub-${email}` }) },
    });
    expect(response.statusCode).toBe(200);
    expect(await refererOf({ email })).toBeNull();
  });
});

describe('the referer is fixed', () => {
  it('cannot be added, changed or pointed at oneself after the account exists', async () => {
    const partner = await createActiveUser(t);
    const stranger = await createActiveUser(t);
    const orphan = await createActiveUser(t);
    const email = uniqueEmail('ref-fixed');
    await t.app.inject({
      method: 'POST',
      url: '/api/users/',
      headers: refCookie(partner.referralCode),
      payload: { email, password: 'Blue-Otter-73' },
    });
    const [child] = await t.deps.db.select().from(users).where(eq(users.email, email));
    // The partner cannot become their own downline's child: that would be a cycle.
    await expect(
      usersRepository.update(t.deps.db, partner.id, t.deps.now(), { refererId: child!.id }),
    ).rejects.toThrow();
    await expect(
      usersRepository.update(t.deps.db, child!.id, t.deps.now(), { refererId: stranger.id }),
    ).rejects.toThrow();
    await expect(
      usersRepository.update(t.deps.db, orphan.id, t.deps.now(), { refererId: orphan.id }),
    ).rejects.toThrow();
    expect(await refererOf({ id: child!.id })).toBe(partner.id);
    expect(await refererOf({ id: orphan.id })).toBeNull();
  });
});
