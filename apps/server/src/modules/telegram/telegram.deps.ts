import type { SharedDeps } from '../../shared/deps.js';
import type { SessionCache, TokenService } from '../auth/index.js';
import type { TelegramBotApi } from './bot-api.client.js';

/** What the telegram module is handed at start: its slice of the app's dependencies. */
export interface TelegramDeps extends Pick<SharedDeps, 'config' | 'db' | 'logger' | 'rateLimiter' | 'now'> {
  tokens: TokenService;
  sessionCache: SessionCache;
  /** Null when no bot token is configured: Telegram features answer `auth.telegram_unavailable`. */
  telegramBot: TelegramBotApi | null;
  /** Where Stars payment updates go (the payments module); null: Stars are not sold. */
  starsPayments: StarsPaymentUpdates | null;
}

/** What the bot does with the payment updates of Telegram Stars (provided by payments). */
export interface StarsPaymentUpdates {
  /**
   * Whether the order can still be paid; answered to Telegram within its 10 seconds (the refusal's
   * text, in the buyer's language, is the bot's).
   */
  preCheckout(query: {
    fromTelegramId: number;
    currency: string;
    totalAmount: number;
    payload: string;
  }): Promise<{ ok: boolean }>;
  /** A `successful_payment`: the only moment a Stars purchase is granted. */
  successfulPayment(fromTelegramId: number, payment: unknown): Promise<void>;
  refundedPayment(fromTelegramId: number, refund: unknown): Promise<void>;
}
