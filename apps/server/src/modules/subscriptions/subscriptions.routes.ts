import { ZPremiumCheckout, ZPremiumCheckoutStarted, ZPremiumState } from '@mirra/contracts';
import { requireAuth } from '../../shared/http/auth-context.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { SubscriptionsDeps } from './subscriptions.deps.js';
import { cancelSubscription, getSubscription, startSubscription } from './subscriptions.usecases.js';

const tags = ['subscriptions'];
const security: Array<Record<string, string[]>> = [{ bearer: [] }, { telegram: [] }];

export function registerSubscriptionsRoutes(app: ZodApp, deps: SubscriptionsDeps): void {
  const caller = (
    request: { ip: string; headers: Record<string, string | string[] | undefined> },
    userId: number,
  ) => ({ userId, ip: request.ip, headers: request.headers });

  app.get(
    '/api/subscriptions/me/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'My premium subscription and the plan at my region’s price',
        response: { 200: ZPremiumState },
        security,
      },
    },
    async (request) => getSubscription(deps, caller(request, requireAuth(request).user.id)),
  );

  app.post(
    '/api/subscriptions/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'Get premium (or switch renewals back on); answers where to pay',
        body: ZPremiumCheckout,
        response: { 200: ZPremiumCheckoutStarted },
        security,
      },
    },
    async (request) => startSubscription(deps, caller(request, requireAuth(request).user.id), request.body),
  );

  app.post(
    '/api/subscriptions/cancel/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'Cancel renewals (access runs to its date)',
        response: { 200: ZPremiumState },
        security,
      },
    },
    async (request) => {
      const userId = requireAuth(request).user.id;
      await cancelSubscription(deps, userId);
      return getSubscription(deps, caller(request, userId));
    },
  );
}
