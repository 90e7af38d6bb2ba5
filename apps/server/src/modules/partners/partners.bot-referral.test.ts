import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTelegramBotApiFake, type TelegramBotApiFake } from '../../fakes/telegram-bot-api.fake.js';
import { users } from '../../shared/db/schema.js';
import { bearer, createActiveUser, login } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { setupTelegramBot } from '../telegram/telegram-setup.usecases.js';

// A partner's bot link (t.me/<bot>?start=ref_<code>): the fake Bot API delivers the "Start" press
// to the webhook the real setup registered, over real HTTP.
const WEBHOOK_SECRET = 'bot-referral-suite_Secret-0123456789';
let bot: TelegramBotApiFake;
let t: TestApp;
beforeAll(async () => {
  bot = await startTelegramBotApiFake({ botUsername: 'mirra_referral_bot' });
  t = await createTestApp({
    env: { ...bot.env, TELEGRAM_WEBHOOK_SECRET: WEBHOOK_SECRET, PUBLIC_URL: 'https://mirra.test' },
  });
  const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  await setupTelegramBot({ config: t.deps.config, webhookUrl: `${address}/api/tg/webhook/` });
});
afterAll(async () => {
  await t?.close();
  await bot?.close();
});

const byTelegramId = async (id: number) =>
  (await t.deps.db.select().from(users).where(eq(users.telegramId, id)))[0];

describe('/start ref_<code> in the bot', () => {
  it('makes the new Telegram user a partner of the link’s owner, who sees them in the team', async () => {
    const partner = await createActiveUser(t);
    const delivery = await bot.pressStart({
      payload: `ref_${partner.referralCode}`,
      user: { first_name: 'Boris', language_code: 'ru' },
    });
    expect(delivery.status).toBeLessThan(300);
    const joined = await byTelegramId(delivery.update.message!.from.id);
    expect(joined?.refererId).toBe(partner.id);

    await t.runJobs();
    const { access } = await login(t, partner.email!, partner.password);
    const team = await t.app.inject({ method: 'GET', url: '/api/linear/', headers: bearer(access) });
    expect(team.json().results).toEqual([expect.objectContaining({ name: 'Boris' })]);

    // Pressing Start again with another link changes no one's referer.
    const other = await createActiveUser(t);
    const again = await bot.pressStart({
      payload: `ref_${other.referralCode}`,
      user: { id: delivery.update.message!.from.id, first_name: 'Boris' },
    });
    expect(again.status).toBeLessThan(300);
    expect((await byTelegramId(delivery.update.message!.from.id))?.refererId).toBe(partner.id);
  });

  it('a start payload that is no partner code creates nobody', async () => {
    const delivery = await bot.pressStart({ payload: 'campaign_spring' });
    expect(delivery.status).toBeLessThan(300);
    expect(await byTelegramId(delivery.update.message!.from.id)).toBeUndefined();
  });
});
