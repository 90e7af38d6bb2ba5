/**
 * The public face of the subscriptions module (premium): the only file other modules and the
 * composition root import from it.
 *
 * The plan (PREMIUM_PLAN): a period, optional trial days (once per person: per account and per
 * Telegram id), credits per period, a price per region (roubles in Russia, US dollars elsewhere,
 * Stars in the Mini App). Subscription orders go through payments with purpose `subscription`;
 * `applySubscriptionPayment` is registered as payments' handler for that purpose and runs in the
 * payment's transaction. Premium's features follow the `premium` entitlement (its end is the
 * subscription's `access_until`): no free-tier pause, a higher generation job priority.
 *
 * Refunds and chargebacks of a subscription payment end the period it bought and stop renewals;
 * the domain event other modules use (the partner programme's clawback) is payments'
 * `PaymentListener.onRefunded`, fired in the same transaction for every refunded order.
 */
export type { SubscriptionsDeps } from './subscriptions.deps.js';
export { parsePremiumPlan } from './subscriptions.models.js';
export { subscriptionsJobHandlers } from './subscriptions.jobs.js';
export { subscriptionsJobDefinitions } from './subscriptions.jobs.definitions.js';
export { registerSubscriptionsRoutes } from './subscriptions.routes.js';
export { applySubscriptionPayment } from './subscription-payments.usecases.js';
export { findSubscriptionForStaff, renewDueSubscriptions } from './subscriptions.usecases.js';
