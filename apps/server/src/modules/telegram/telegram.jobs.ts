import { z } from 'zod';
import type { AppDeps } from '../../app/deps.js';
import { defineJob, toTask } from '../../shared/jobs.js';
import { usersRepository } from '../users/users.repository.js';
import { TelegramApiError } from './bot-api.client.js';

/**
 * Bot messages are sent from a job so the webhook answers Telegram at once (it re-delivers
 * anything slow or failed) and a Bot API hiccup is retried with backoff.
 */
export const sendTelegramMessageJob = defineJob({
  name: 'telegram:send_message',
  payload: z.object({
    chatId: z.number().int(),
    text: z.string().min(1).max(4096),
    /** A button opening the Mini App (or the site) at this URL. */
    openAppUrl: z.string().optional(),
    openAppLabel: z.string().optional(),
  }),
  maxAttempts: 8,
});

export function telegramJobHandlers(deps: AppDeps) {
  return {
    [sendTelegramMessageJob.name]: toTask(sendTelegramMessageJob, async (payload) => {
      if (!deps.telegramBot) return;
      // Telegram accepts web_app buttons only for https URLs; otherwise a plain link button.
      const button = payload.openAppUrl
        ? payload.openAppUrl.startsWith('https://')
          ? { text: payload.openAppLabel ?? 'Open', web_app: { url: payload.openAppUrl } }
          : null
        : null;
      try {
        await deps.telegramBot.sendMessage({
          chat_id: payload.chatId,
          text: payload.text,
          ...(button ? { reply_markup: { inline_keyboard: [[button]] } } : {}),
        });
      } catch (error) {
        if (error instanceof TelegramApiError && error.isForbidden) {
          // Blocked or never started: remember it and stop retrying.
          const user = await usersRepository.findByTelegramId(deps.db, payload.chatId);
          if (user) await usersRepository.update(deps.db, user.id, { telegramAllowsWrite: false });
          deps.logger.info({ chatId: payload.chatId }, 'telegram user does not accept bot messages');
          return;
        }
        throw error;
      }
    }),
  };
}
