import type { SharedDeps } from '../../shared/deps.js';
import type { GeoLocator } from '../geo/index.js';
import type { TelegramBotApi } from '../telegram/index.js';
import type { PaymentListener } from './payment-hooks.js';
import type { PaymentPurposeHandlers } from './payment-provider.js';

/** What the payments module is handed at start: its slice of the app's dependencies. */
export interface PaymentsDeps extends Pick<SharedDeps, 'config' | 'db' | 'logger' | 'linkSecret' | 'now'> {
  geo: GeoLocator;
  /** Telegram Stars are sold through the bot; null when no bot is configured. */
  telegramBot: TelegramBotApi | null;
  /** How the events of subscription and wallet payments are applied (their modules own them). */
  paymentPurposeHandlers: PaymentPurposeHandlers;
  /** Every module listening to payments and refunds (see PaymentListener). */
  paymentListeners: PaymentListener[];
}
