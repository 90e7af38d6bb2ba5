import type { Config } from '../../shared/config.js';
import { createTelegramBotApi, type TelegramBotApi, type WebhookInfo } from './bot-api.client.js';
import {
  isWebhookSecretFormatValid,
  TELEGRAM_ALLOWED_UPDATES,
  TELEGRAM_WEBHOOK_PATH,
} from './telegram.models.js';

export interface TelegramSetupReport {
  /** The username the token belongs to, per getMe (without @). */
  botUsername: string;
  webhookUrl: string;
  allowedUpdates: string[];
  /** What getWebhookInfo says after the change (a pending count or last error is worth a look). */
  webhookInfo: WebhookInfo;
  /** Problems that do not stop the setup but will bite later. */
  warnings: string[];
}

/** Setup cannot go on; the message says which setting to fix. */
export class TelegramSetupError extends Error {
  override name = 'TelegramSetupError';
}

/**
 * `npm run telegram:setup`: checks the bot token with getMe and points the bot's webhook at this
 * server (`${PUBLIC_URL}/api/tg/webhook/`, with TELEGRAM_WEBHOOK_SECRET as the secret-token header).
 * Safe to run again: Telegram just replaces the webhook. `bot` and `webhookUrl` are for tests.
 */
export async function setupTelegramBot(options: {
  config: Pick<Config, 'publicUrl' | 'telegram'>;
  bot?: TelegramBotApi;
  webhookUrl?: string;
}): Promise<TelegramSetupReport> {
  const { config } = options;
  const { botToken, botUsername, webhookSecret, apiBase } = config.telegram;
  if (!botToken) throw new TelegramSetupError('TELEGRAM_BOT_TOKEN is not set: take it from @BotFather.');
  if (!webhookSecret) {
    throw new TelegramSetupError(
      'TELEGRAM_WEBHOOK_SECRET is not set: without it the webhook refuses every update. Use 32+ random characters of A-Z a-z 0-9 _ -.',
    );
  }
  if (!isWebhookSecretFormatValid(webhookSecret)) {
    throw new TelegramSetupError(
      'TELEGRAM_WEBHOOK_SECRET may only hold A-Z a-z 0-9 _ - (1-256 characters); Telegram refuses anything else.',
    );
  }
  const bot = options.bot ?? createTelegramBotApi({ apiBase, botToken });
  const webhookUrl = options.webhookUrl ?? `${config.publicUrl}${TELEGRAM_WEBHOOK_PATH}`;
  const warnings: string[] = [];

  const me = await bot.getMe();
  if (botUsername && botUsername.toLowerCase() !== me.username.toLowerCase()) {
    warnings.push(
      `TELEGRAM_BOT_USERNAME is @${botUsername}, but the token belongs to @${me.username}: sign-in links would open the wrong bot.`,
    );
  } else if (!botUsername) {
    warnings.push(
      `TELEGRAM_BOT_USERNAME is not set: set it to ${me.username} to enable sign-in through the bot.`,
    );
  }
  if (!webhookUrl.startsWith('https://')) {
    warnings.push(
      `${webhookUrl} is not https: the real Telegram accepts only https webhooks (ports 443, 80, 88, 8443).`,
    );
  }

  await bot.setWebhook({
    url: webhookUrl,
    secret_token: webhookSecret,
    allowed_updates: TELEGRAM_ALLOWED_UPDATES,
  });
  const webhookInfo = await bot.getWebhookInfo();
  if (webhookInfo.last_error_message) {
    warnings.push(`Telegram's last delivery to the webhook failed: ${webhookInfo.last_error_message}`);
  }
  return {
    botUsername: me.username,
    webhookUrl,
    allowedUpdates: TELEGRAM_ALLOWED_UPDATES,
    webhookInfo,
    warnings,
  };
}
