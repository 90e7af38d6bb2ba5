import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTelegramBotApiFake, type TelegramBotApiFake } from '../../fakes/telegram-bot-api.fake.js';
import { parseConfig } from '../../shared/config.js';
import { TelegramApiError } from './bot-api.client.js';
import { setupTelegramBot, TelegramSetupError } from './telegram-setup.usecases.js';

let fake: TelegramBotApiFake;
beforeAll(async () => {
  fake = await startTelegramBotApiFake({ botUsername: 'mirra_setup_bot' });
});
afterAll(() => fake.close());
afterEach(() => fake.clearCalls());

/** The config `npm run telegram:setup` would read from this environment. */
const configWith = (env: Record<string, string>) =>
  parseConfig({
    PUBLIC_URL: 'https://mirra.example/',
    TELEGRAM_API_BASE: fake.url,
    TELEGRAM_BOT_TOKEN: fake.token,
    TELEGRAM_BOT_USERNAME: '@mirra_setup_bot',
    TELEGRAM_WEBHOOK_SECRET: 'Setup_secret-123',
    ...env,
  });

describe('setupTelegramBot (npm run telegram:setup)', () => {
  it('checks the token with getMe and points the webhook at PUBLIC_URL/api/tg/webhook/ with the secret', async () => {
    const report = await setupTelegramBot({ config: configWith({}) });
    expect(report).toMatchObject({
      botUsername: 'mirra_setup_bot',
      webhookUrl: 'https://mirra.example/api/tg/webhook/',
      allowedUpdates: ['message', 'pre_checkout_query'],
      webhookInfo: { url: 'https://mirra.example/api/tg/webhook/', pending_update_count: 0 },
      warnings: [],
    });
    expect(fake.calls().map((c) => c.method)).toEqual(['getMe', 'setWebhook', 'getWebhookInfo']);
    expect(fake.calls('setWebhook')[0]!.params).toEqual({
      url: 'https://mirra.example/api/tg/webhook/',
      secret_token: 'Setup_secret-123',
      allowed_updates: ['message', 'pre_checkout_query'],
    });
    expect(fake.webhook()).toEqual({
      url: 'https://mirra.example/api/tg/webhook/',
      secretToken: 'Setup_secret-123',
      allowedUpdates: ['message', 'pre_checkout_query'],
      maxConnections: 40,
    });
  });

  it('warns when TELEGRAM_BOT_USERNAME is not the bot the token belongs to, or is missing', async () => {
    const wrong = await setupTelegramBot({
      config: configWith({ TELEGRAM_BOT_USERNAME: 'someone_else_bot' }),
    });
    expect(wrong.warnings).toEqual([
      'TELEGRAM_BOT_USERNAME is @someone_else_bot, but the token belongs to @mirra_setup_bot: sign-in links would open the wrong bot.',
    ]);
    // Case does not matter in Telegram usernames.
    const cased = await setupTelegramBot({
      config: configWith({ TELEGRAM_BOT_USERNAME: 'Mirra_Setup_Bot' }),
    });
    expect(cased.warnings).toEqual([]);
    const missing = await setupTelegramBot({ config: configWith({ TELEGRAM_BOT_USERNAME: '' }) });
    expect(missing.warnings).toEqual([
      'TELEGRAM_BOT_USERNAME is not set: set it to mirra_setup_bot to enable sign-in through the bot.',
    ]);
  });

  it('warns that the real Telegram needs https', async () => {
    const report = await setupTelegramBot({ config: configWith({ PUBLIC_URL: 'http://localhost:3000' }) });
    expect(report.webhookUrl).toBe('http://localhost:3000/api/tg/webhook/');
    expect(report.warnings).toEqual([expect.stringMatching(/is not https/)]);
  });

  it('refuses to run without a token or a usable secret, before calling Telegram', async () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ TELEGRAM_BOT_TOKEN: '' }, /TELEGRAM_BOT_TOKEN is not set/],
      [{ TELEGRAM_WEBHOOK_SECRET: '' }, /TELEGRAM_WEBHOOK_SECRET is not set/],
      [{ TELEGRAM_WEBHOOK_SECRET: 'has:colon' }, /may only hold A-Z a-z 0-9 _ -/],
      [{ TELEGRAM_WEBHOOK_SECRET: 'x'.repeat(257) }, /may only hold/],
    ];
    for (const [env, message] of cases) {
      const error = await setupTelegramBot({ config: configWith(env) }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TelegramSetupError);
      expect((error as Error).message).toMatch(message);
    }
    expect(fake.calls()).toEqual([]);
  });

  it('reports a token Telegram does not know as the API error', async () => {
    const error = await setupTelegramBot({
      config: configWith({ TELEGRAM_BOT_TOKEN: `${fake.bot.id}:revoked` }),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TelegramApiError);
    expect(error).toMatchObject({ method: 'getMe', errorCode: 401, description: 'Unauthorized' });
    expect(fake.calls('setWebhook')).toEqual([]);
  });
});
