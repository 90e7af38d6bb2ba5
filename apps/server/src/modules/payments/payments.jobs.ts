import type { PaymentsDeps } from './payments.deps.js';
import { reconcilePendingOrders } from './provider-events.usecases.js';

export function paymentsJobHandlers(deps: PaymentsDeps) {
  return {
    /** Cron: orders left pending (a lost notification) are re-fetched from their provider. */
    'payments:reconcile': async () => {
      await reconcilePendingOrders(deps);
    },
  };
}
