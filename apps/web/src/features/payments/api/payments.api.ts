import { routes, type TPaymentMethod, type TPaymentRegion } from '@mirra/contracts';
import { api } from '../../../lib/api-client';

export const paymentKeys = {
  all: ['payments'] as const,
  catalogue: () => ['payments', 'catalogue'] as const,
  order: (uuid: string) => ['payments', 'order', uuid] as const,
};

export interface OrderRequest {
  product: string;
  method: TPaymentMethod;
  agree_offer: boolean;
  agree_privacy: boolean;
  /** Where to come back after paying. */
  return: string;
}

export const paymentsApi = {
  catalogue: () => api(routes.payments.catalogue),
  changeRegion: (region: TPaymentRegion) => api(routes.payments.changeRegion, { body: { region } }),
  createOrder: (order: OrderRequest) => api(routes.payments.createOrder, { body: order }),
  order: (uuid: string) => api(routes.payments.order, { params: { uuid } }),
};
