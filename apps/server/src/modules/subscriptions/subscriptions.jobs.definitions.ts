import { z } from 'zod';
import { defineJob } from '../../shared/jobs.js';

/**
 * A refunded first payment of a provider-run subscription (Stripe, Stars) must also stop the
 * provider's own schedule, or it would charge the person again next period. The refund is applied
 * inside the payment's transaction; the provider call happens here, after it, retried until done.
 */
export const stopProviderSubscriptionJob = defineJob({
  name: 'subscriptions:stop_provider_subscription',
  payload: z.object({
    provider: z.string(),
    providerSubscriptionId: z.string(),
    userId: z.number().int(),
  }),
  maxAttempts: 10,
});

/** Every job this module defines; the worker refuses to start while one has no handler. */
export const subscriptionsJobDefinitions = [stopProviderSubscriptionJob] as const;
