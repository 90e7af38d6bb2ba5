import type { PaymentsDeps } from '../payments/index.js';

/**
 * What the subscriptions module is handed at start: its slice of the app's dependencies. It pays
 * through the payments module, so it takes what payments needs.
 */
export type SubscriptionsDeps = PaymentsDeps;
