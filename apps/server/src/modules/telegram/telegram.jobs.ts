import type { TelegramDeps } from './telegram.deps.js';
import { toTask } from '../../shared/jobs.js';
import { sendBotMessage } from './telegram-send.usecases.js';
import { sendTelegramMessageJob } from './telegram.jobs.definitions.js';

export function telegramJobHandlers(deps: TelegramDeps) {
  return {
    [sendTelegramMessageJob.name]: toTask(sendTelegramMessageJob, (payload) => sendBotMessage(deps, payload)),
  };
}
