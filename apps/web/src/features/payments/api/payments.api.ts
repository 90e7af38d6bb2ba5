import type {
  TPaymentCatalogue,
  TPaymentInvoiceState,
  TPaymentMethod,
  TPaymentOrder,
  TPaymentRegion,
} from '@mirra/contracts';
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
  /** A wallet top-up's amount (minor units) and currency. */
  amount?: number;
  currency?: number;
}

export const paymentsApi = {
  catalogue: () => api.get<TPaymentCatalogue>('/api/payments/catalogue/'),
  changeRegion: (region: TPaymentRegion) => api.put<TPaymentCatalogue>('/api/payments/region/', { region }),
  createOrder: (order: OrderRequest) =>
    api.post<{ uuid: string; confirmation_url: string }>('/api/payments/orders/', order),
  order: (uuid: string) => api.get<TPaymentOrder>(`/api/payments/orders/${uuid}/`),
  /** An invoice's live state; open to anyone with its uuid (the SberPay return page). */
  invoice: (uuid: string, key: string) =>
    api.get<TPaymentInvoiceState>(`/api/payments/invoices/${uuid}/?key=${encodeURIComponent(key)}`),
};
