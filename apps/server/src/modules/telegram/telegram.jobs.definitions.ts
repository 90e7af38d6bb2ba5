import { z } from 'zod';
import { defineJob } from '../../shared/jobs.js';

/**
 * Transactional bot messages (sign-in, linking, payments) are sent from a job so the webhook answers Telegram at once (it re-delivers
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
// Notices (a model is ready, a partner commission…) go out through the notifications module's
// delivery job instead, which checks the user's preferences right before it sends.

/** Every job this module defines; the worker refuses to start while one has no handler. */
export const telegramJobDefinitions = [sendTelegramMessageJob] as const;
