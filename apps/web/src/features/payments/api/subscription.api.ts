import { routes, type RouteBody } from '@mirra/contracts';
import { api } from '../../../lib/api-client';

export const subscriptionKeys = {
  all: ['subscription'] as const,
  mine: () => ['subscription', 'mine'] as const,
};

/** The plan's checkout as the route declares it (method, consent, return path, the price shown). */
export type SubscriptionCheckoutRequest = RouteBody<typeof routes.subscriptions.start>;

export const subscriptionApi = {
  mine: () => api(routes.subscriptions.mine),
  start: (body: SubscriptionCheckoutRequest) => api(routes.subscriptions.start, { body }),
  cancel: () => api(routes.subscriptions.cancel),
};
