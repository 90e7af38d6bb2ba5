import type { SharedDeps } from '../../shared/deps.js';
import type { SessionCache, TokenService } from '../auth/index.js';
import type { TelegramBotApi } from './bot-api.client.js';

/** What the telegram module is handed at start: its slice of the app's dependencies. */
export interface TelegramDeps extends Pick<
  SharedDeps,
  'config' | 'db' | 'logger' | 'linkSecret' | 'mailer' | 'rateLimiter' | 'now'
> {
  tokens: TokenService;
  sessionCache: SessionCache;
  /** Null when no bot token is configured: Telegram features answer `auth.telegram_unavailable`. */
  telegramBot: TelegramBotApi | null;
}
