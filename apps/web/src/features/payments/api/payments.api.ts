import { routes, type TPaymentMethod, type TPaymentRegion } from '@mirra/contracts';
import { api } from '../../../lib/api-client';

export const paymentKeys = {
  all: ['payments'] as const,
  catalogue: () => ['payments', 'catalogue'] as const,
  order: (uuid: string) => ['payments', 'order', uuid] as const,
  invoice: (uuid: string) => ['payments', 'invoice', uuid] as const,
};

export interface OrderRequest {
  product: string;
  method: TPaymentMethod;
  agree_offer: boolean;
  agree_privacy: boolean;
  /** Where to come back after paying. */
  return: string;
  /**
   * The price shown (minor units, or whole Stars with CURRENCY_XTR); for a wallet top-up, the
   * amount to pay in. The server refuses with `payments.price_changed` if it would charge another.
   */
  amount?: number;
  currency?: number;
  /** The receipt's email when the account has none (YooKassa). */
  email?: string;
}

export const paymentsApi = {
  catalogue: () => api(routes.payments.catalogue),
  changeRegion: (region: TPaymentRegion) => api(routes.payments.changeRegion, { body: { region } }),
  createOrder: (order: OrderRequest) => api(routes.payments.createOrder, { body: order }),
  order: (uuid: string) => api(routes.payments.order, { params: { uuid } }),
  cancelOrder: (uuid: string) => api(routes.payments.cancelOrder, { params: { uuid } }),
  /** An invoice's live state; opened by its key (the SberPay return page, signed in or not). */
  invoice: (uuid: string, key: string) => api(routes.payments.invoice, { params: { uuid }, query: { key } }),
};
