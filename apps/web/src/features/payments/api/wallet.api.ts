import { routes, type TWalletFilter } from '@mirra/contracts';
import { api } from '../../../lib/api-client';

export const walletKeys = {
  all: ['wallet'] as const,
  balances: () => ['wallet', 'balances'] as const,
  transactions: (currency: number, filter: TWalletFilter | null) =>
    ['wallet', 'transactions', currency, filter ?? 'all'] as const,
};

export const walletApi = {
  balances: () => api(routes.wallet.balances),
  transactions: (currency: number, filter: TWalletFilter | null, cursor: string | null) =>
    api(routes.wallet.transactions, {
      params: { currency: String(currency) },
      query: { ...(filter ? { filter } : {}), ...(cursor ? { cursor } : {}) },
    }),
};
