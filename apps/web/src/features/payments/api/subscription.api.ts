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
  /** The plan's price shown (refused with `payments.price_changed` if the server would charge another). */
  amount?: number;
  currency?: number;
  /** The receipt's email when the account has none (YooKassa). */
  email?: string;
}

export const subscriptionApi = {
  mine: () => api(routes.subscriptions.mine),
  start: (body: SubscriptionCheckoutRequest) => api(routes.subscriptions.start, { body }),
  cancel: () => api(routes.subscriptions.cancel),
};
