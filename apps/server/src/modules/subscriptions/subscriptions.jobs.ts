import type { SubscriptionsDeps } from './subscriptions.deps.js';
import { renewDueSubscriptions } from './subscriptions.usecases.js';

export function subscriptionsJobHandlers(deps: SubscriptionsDeps) {
  return {
    // Cron: charges the renewals that are due (ahead of each next charge date, and retries).
    'subscriptions:renew': async () => {
      await renewDueSubscriptions(deps);
    },
  };
}
