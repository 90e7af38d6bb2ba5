import type { PricingSettings } from '../pricing/index.js';
import type { SharedDeps } from '../../shared/deps.js';
import type { GeoLocator } from '../geo/index.js';
import type { TelegramBotApi } from '../telegram/index.js';
import type { PaymentListener, PaymentPurposeHandlers } from './payment-hooks.js';

/** What the payments module is handed at start: its slice of the app's dependencies. */
export interface PaymentsDeps extends Pick<SharedDeps, 'config' | 'db' | 'logger' | 'linkSecret' | 'now'> {
  geo: GeoLocator;
  /** Telegram Stars are sold through the bot; null when no bot is configured. */
  telegramBot: TelegramBotApi | null;
  /** What other modules do when orders of their purpose are paid or refunded. */
  purposeHandlers: PaymentPurposeHandlers;
  /** Every module listening to payments and refunds (see PaymentListener). */
  paymentListeners: PaymentListener[];
  /** The catalogue and the plan in force (the configuration's, or the staff console's). */
  pricing: PricingSettings;
}
