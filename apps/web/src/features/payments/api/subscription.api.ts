import type { TPaymentMethod, TPremiumState } from '@mirra/contracts';
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
  mine: () => api.get<TPremiumState>('/api/subscriptions/me/'),
  start: (body: SubscriptionCheckoutRequest) =>
    api.post<{ uuid: string | null; confirmation_url: string | null }>('/api/subscriptions/', body),
  cancel: () => api.post<TPremiumState>('/api/subscriptions/cancel/', {}),
};
