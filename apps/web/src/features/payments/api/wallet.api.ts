import type { TWalletBalances, TWalletFilter, TWalletTransactions } from '@mirra/contracts';
import { api } from '../../../lib/api-client';

export const walletKeys = {
  all: ['wallet'] as const,
  balances: () => ['wallet', 'balances'] as const,
  transactions: (currency: number, filter: TWalletFilter | null) =>
    ['wallet', 'transactions', currency, filter ?? 'all'] as const,
};

export const walletApi = {
  balances: () => api.get<TWalletBalances>('/api/wallet/'),
  transactions: (currency: number, filter: TWalletFilter | null, cursor: string | null) => {
    const query = new URLSearchParams();
    if (filter) query.set('filter', filter);
    if (cursor) query.set('cursor', cursor);
    const search = query.toString();
    return api.get<TWalletTransactions>(`/api/wallet/transactions/${currency}/${search ? `?${search}` : ''}`);
  },
};
