import { routes, type RouteBody, type TPaymentRegion } from '@mirra/contracts';
import { api } from '../../../lib/api-client';

export const paymentKeys = {
  all: ['payments'] as const,
  catalogue: () => ['payments', 'catalogue'] as const,
  order: (uuid: string) => ['payments', 'order', uuid] as const,
  invoice: (uuid: string) => ['payments', 'invoice', uuid] as const,
};

/** An order as the route declares it (product, method, consent, return path, the price shown). */
export type OrderRequest = RouteBody<typeof routes.payments.createOrder>;

export const paymentsApi = {
  catalogue: () => api(routes.payments.catalogue),
  changeRegion: (region: TPaymentRegion) => api(routes.payments.changeRegion, { body: { region } }),
  createOrder: (order: OrderRequest) => api(routes.payments.createOrder, { body: order }),
  order: (uuid: string) => api(routes.payments.order, { params: { uuid } }),
  cancelOrder: (uuid: string) => api(routes.payments.cancelOrder, { params: { uuid } }),
  /** An invoice's live state; opened by its key (the SberPay return page, signed in or not). */
  invoice: (uuid: string, key: string) => api(routes.payments.invoice, { params: { uuid }, query: { key } }),
};
