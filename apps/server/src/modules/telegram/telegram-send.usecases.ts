import { setTimeout as sleep } from 'node:timers/promises';
import type { TelegramDeps } from './telegram.deps.js';
import { findUserByTelegramId, updateUser } from '../users/index.js';
import { TelegramApiError, type SendMessageParams } from './bot-api.client.js';
import { openAppButton } from './telegram.models.js';

/**
 * Flood control (429) usually asks for a second or two: waiting that out here beats the worker's
 * backoff, which would retry too early and spend an attempt. Longer waits go back to the queue.
 */
const MAX_INLINE_RETRY_AFTER_SECONDS = 5;

export interface BotMessage {
  chatId: number;
  text: string;
  /** A button opening the Mini App (or the site) at this URL. */
  openAppUrl?: string | undefined;
  openAppLabel?: string | undefined;
}

/**
 * Sends one bot message from a job (its retries are the job's). A user who blocked the bot is
 * remembered (`telegramAllowsWrite` off) and not retried; other failures throw for a retry.
 */
export async function sendBotMessage(
  deps: Pick<TelegramDeps, 'db' | 'logger' | 'now' | 'sessionCache' | 'telegramBot'>,
  payload: BotMessage,
): Promise<void> {
  const bot = deps.telegramBot;
  if (!bot) return;
  const button = openAppButton(payload.openAppUrl, payload.openAppLabel ?? 'Open');
  const message: SendMessageParams = {
    chat_id: payload.chatId,
    text: payload.text,
    ...(button ? { reply_markup: { inline_keyboard: [[button]] } } : {}),
  };
  try {
    await bot.sendMessage(message).catch(async (error: unknown) => {
      const retryAfter = error instanceof TelegramApiError ? error.retryAfter : undefined;
      if (retryAfter === undefined || retryAfter > MAX_INLINE_RETRY_AFTER_SECONDS) throw error;
      await sleep(retryAfter * 1000);
      return bot.sendMessage(message);
    });
  } catch (error) {
    if (error instanceof TelegramApiError && error.isForbidden) {
      // Blocked or never started: remember it and stop retrying.
      const user = await findUserByTelegramId(deps.db, payload.chatId);
      if (user) {
        await updateUser(deps.db, user.id, deps.now(), { telegramAllowsWrite: false });
        deps.sessionCache.forgetUser(user.id);
      }
      deps.logger.info({ chatId: payload.chatId }, 'telegram user does not accept bot messages');
      return;
    }
    throw error;
  }
}
