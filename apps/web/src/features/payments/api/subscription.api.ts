import { routes, type TPaymentMethod } from '@mirra/contracts';
import { api } from '../../../lib/api-client';

export const subscriptionKeys = {
  all: ['subscription'] as const,
  mine: () => ['subscription', 'mine'] as const,
};

export interface SubscriptionCheckoutRequest {
  method: TPaymentMethod;
  agree_offer: boolean;
  agree_privacy: boolean;
  return: string;
}

export const subscriptionApi = {
  mine: () => api(routes.subscriptions.mine),
  start: (body: SubscriptionCheckoutRequest) => api(routes.subscriptions.start, { body }),
  cancel: () => api(routes.subscriptions.cancel),
};
