/**
 * The public face of the telegram module: the only file other modules and the composition root
 * import from it. Anything not exported here is the module's own business.
 */
export { createTelegramBotApi, type TelegramBotApi } from './bot-api.client.js';
export { authenticateTelegramInitData, telegramUnavailable } from './telegram-auth.usecases.js';
export type { StarsPaymentUpdates, TelegramDeps } from './telegram.deps.js';
export { telegramJobDefinitions } from './telegram.jobs.definitions.js';
export { sendBotMessage } from './telegram-send.usecases.js';
export { telegramJobHandlers } from './telegram.jobs.js';
export { registerTelegramRoutes } from './telegram.routes.js';
export { deleteExpiredAuthKeys } from './telegram.usecases.js';
