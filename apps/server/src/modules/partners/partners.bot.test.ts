import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTelegramBotApiFake, type TelegramBotApiFake } from '../../fakes/telegram-bot-api.fake.js';
import { users } from '../../shared/db/schema.js';
import { bearer, createActiveUser, login } from '../../test/factories.js';
import { buyAndPayWithTestProvider } from '../../test/payments.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { approvePayout, rejectPayout, releaseDueCommissions } from './index.js';

// What partners hear from the bot, through the Bot API fake: each notice in the partner's own
// language, to their chat, with the button that opens the partner screen — and only when they
// allowed the bot to write.
let bot: TelegramBotApiFake;
let t: TestApp;
beforeAll(async () => {
  bot = await startTelegramBotApiFake({ botUsername: 'mirra_partner_bot' });
  t = await createTestApp({
    env: {
      ...bot.env,
      PUBLIC_URL: 'https://mirra.test',
      GEO_COUNTRY_HEADER: 'x-country',
      WELCOME_CREDITS: '0',
      PARTNER_LEVELS: '10,5,2',
      PARTNER_LEVEL_MIN_PAYING: '0,0,0',
      // These purchases go through the test provider: they earn as real ones would.
      PARTNER_TEST_PAYMENTS_EARN: 'true',
      PARTNER_HOLD_DAYS: '14',
      PAYOUT_MIN_RUB: '5',
      RATE_LIMIT_LOGIN_PER_IP: '10000',
      RATE_LIMIT_LOGIN_PER_EMAIL: '10000',
      ACCESS_TOKEN_SECONDS: String(60 * 86_400),
      MODERATION_IMAGES: 'false',
    },
  });
});
afterAll(async () => {
  await t?.close();
  await bot?.close();
});

const DAY = 86_400_000;
let nextChat = 800_000_000 + Math.floor(Math.random() * 100_000_000);
type Person = Awaited<ReturnType<typeof person>>;

/** A user who may be written to in Telegram (or not), speaking `language`. */
async function person(
  options: { referer?: Person; language: string; firstName?: string; botMayWrite?: boolean } = {
    language: 'en',
  },
) {
  const user = await createActiveUser(t, {
    referralCode: options.referer?.user.referralCode,
    firstName: options.firstName ?? '',
  });
  const chatId = (nextChat += 1);
  await t.deps.db
    .update(users)
    .set({ language: options.language, telegramId: chatId, telegramAllowsWrite: options.botMayWrite ?? true })
    .where(eq(users.id, user.id));
  const { access } = await login(t, user.email!, user.password);
  return { user, chatId, headers: { ...bearer(access), 'x-country': 'RU' } };
}

const buyAndPay = async (who: Person) => (await buyAndPayWithTestProvider(t, who.headers)).amount;

/** The texts the bot sent to a chat, oldest first, after the queued sends ran. */
async function botTexts(chatId: number): Promise<string[]> {
  await t.runJobs();
  return bot
    .calls('sendMessage')
    .filter((call) => Number(call.params.chat_id) === chatId)
    .map((call) => String(call.params.text));
}

/** The no-break spaces of number formats as plain ones. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');
/** Roubles (minor units) as the person's language writes them. */
const rub = (minor: number, language: string) =>
  plain(new Intl.NumberFormat(language, { style: 'currency', currency: 'RUB' }).format(minor / 100));

async function requestPayout(who: Person, amount: number, key: string): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/wallet/payouts/',
    headers: who.headers,
    payload: {
      currency: 643,
      amount,
      method: 'card',
      card: '4111 1111 1111 1111',
      holder: 'Olga Ivanova',
      client_key: key,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().uuid as string;
}

describe('the bot’s partner messages', () => {
  it('tells each partner, in their language, of a new partner, a frozen commission, its release and pay-outs paid or rejected', async () => {
    t.setNow(undefined);
    bot.clearCalls();
    const olga = await person({ language: 'ru', firstName: 'Ольга' });
    const dieter = await person({ referer: olga, language: 'de', firstName: 'Dieter' });
    const buyer = await person({ referer: dieter, language: 'en', firstName: 'Bea' });
    await t.runJobs();

    // A new partner: Olga hears of Dieter in Russian, Dieter of Bea in German.
    expect(await botTexts(olga.chatId)).toEqual(['По вашей ссылке зарегистрировался новый партнёр: Dieter.']);
    expect(await botTexts(dieter.chatId)).toEqual([
      'Ein neuer Partner hat sich über deinen Link angemeldet: Bea.',
    ]);
    const joined = bot.calls('sendMessage').find((c) => Number(c.params.chat_id) === olga.chatId)!;
    expect(joined.params.reply_markup).toEqual({
      inline_keyboard: [[{ text: 'Открыть Mirra', web_app: { url: 'https://mirra.test/settings/mlm/' } }]],
    });

    // Bea buys: Dieter (first line, 10 %) and Olga (second line, 5 %) earn frozen commissions.
    bot.clearCalls();
    const amount = await buyAndPay(buyer);
    const dieterShare = Math.floor(amount / 10);
    const olgaShare = Math.floor(amount / 20);
    const [olgaFrozen] = (await botTexts(olga.chatId)).map(plain);
    expect(olgaFrozen).toBe(
      `Вам начислено ${rub(olgaShare, 'ru')} партнёрского вознаграждения. Оно заморожено на 14 дн., затем его можно потратить или вывести.`,
    );
    const [dieterFrozen] = (await botTexts(dieter.chatId)).map(plain);
    expect(dieterFrozen).toBe(
      `Du hast ${rub(dieterShare, 'de')} Partnerprovision verdient. Sie ist 14 Tage eingefroren, danach kannst du sie ausgeben oder auszahlen lassen.`,
    );
    // The buyer is told nothing about commissions.
    expect(await botTexts(buyer.chatId)).toEqual([]);

    // The hold passes: each hears once that the money is available.
    bot.clearCalls();
    t.setNow(new Date(Date.now() + 15 * DAY));
    await releaseDueCommissions(t.deps);
    await releaseDueCommissions(t.deps);
    expect((await botTexts(olga.chatId)).map(plain)).toEqual([
      `Партнёрское вознаграждение ${rub(olgaShare, 'ru')} теперь доступно.`,
    ]);
    expect((await botTexts(dieter.chatId)).map(plain)).toEqual([
      `Deine Partnerprovision von ${rub(dieterShare, 'de')} ist jetzt verfügbar.`,
    ]);

    // Dieter asks for two pay-outs: one is paid, the other rejected.
    bot.clearCalls();
    const paid = await requestPayout(dieter, 1_000, 'bot-payout-paid');
    const rejected = await requestPayout(dieter, 600, 'bot-payout-rejected');
    expect(await botTexts(dieter.chatId)).toEqual([]);
    await approvePayout(t.deps, paid);
    await rejectPayout(t.deps, rejected, 'Wrong card');
    // Deciding again tells nobody twice.
    await approvePayout(t.deps, paid);
    expect((await botTexts(dieter.chatId)).map(plain)).toEqual([
      `Deine Auszahlung von ${rub(1_000, 'de')} wurde gesendet.`,
      `Deine Auszahlung von ${rub(600, 'de')} wurde abgelehnt; das Geld ist zurück in deinem Wallet.`,
    ]);
    t.setNow(undefined);
  });

  it('writes nobody who did not allow the bot, though the in-app notice is there', async () => {
    t.setNow(undefined);
    bot.clearCalls();
    const quiet = await person({ language: 'ru', botMayWrite: false });
    await person({ referer: quiet, language: 'ru', firstName: 'Pavel' });
    await t.runJobs();
    expect(await botTexts(quiet.chatId)).toEqual([]);
    const notices = await t.app.inject({ method: 'GET', url: '/api/notifications/', headers: quiet.headers });
    expect(notices.statusCode).toBe(200);
    expect(JSON.stringify(notices.json())).toContain('partner_joined');
  });
});
