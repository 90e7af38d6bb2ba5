import type { ProviderName } from '../payments/index.js';
import { toTask } from '../../shared/jobs.js';
import type { SubscriptionsDeps } from './subscriptions.deps.js';
import { stopProviderSubscriptionJob } from './subscriptions.jobs.definitions.js';
import { renewDueSubscriptions, stopProviderSubscription } from './subscriptions.usecases.js';

export function subscriptionsJobHandlers(deps: SubscriptionsDeps) {
  return {
    // Cron: charges the renewals that are due (ahead of each next charge date, and retries).
    'subscriptions:renew': async () => {
      await renewDueSubscriptions(deps);
    },
    [stopProviderSubscriptionJob.name]: toTask(stopProviderSubscriptionJob, (payload) =>
      stopProviderSubscription(deps, { ...payload, provider: payload.provider as ProviderName }),
    ),
  };
}
