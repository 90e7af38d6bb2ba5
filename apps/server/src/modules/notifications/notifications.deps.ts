import type { SharedDeps } from '../../shared/deps.js';
import type { SessionCache } from '../auth/index.js';
import type { TelegramBotApi } from '../telegram/index.js';

/** What the notifications module is handed at start: its slice of the app's dependencies. */
export interface NotificationsDeps extends Pick<SharedDeps, 'config' | 'db' | 'logger' | 'mailer' | 'now'> {
  /** Null when no bot is configured: notices then reach Telegram users in the app and by email only. */
  telegramBot: TelegramBotApi | null;
  sessionCache: SessionCache;
}
