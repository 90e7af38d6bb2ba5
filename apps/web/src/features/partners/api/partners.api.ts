import type {
  TPartnerStatistics,
  TPartnerSummary,
  TPayout,
  TPayouts,
  TTeamPage,
  TWalletBalances,
  TTops,
  TCalculatorResult,
  TPayoutBody,
} from '@mirra/contracts';
import { api } from '../../../lib/api-client';

export const partnerKeys = {
  all: ['partners'] as const,
  summary: () => ['partners', 'summary'] as const,
  statistics: (currency: number) => ['partners', 'statistics', currency] as const,
  team: (filters: TeamFilters) => ['partners', 'team', filters] as const,
  tops: (period: string, by: string, currency: number) => ['partners', 'tops', period, by, currency] as const,
  calculator: (partners: string, average: number) => ['partners', 'calculator', partners, average] as const,
  payouts: () => ['partners', 'payouts'] as const,
  wallet: () => ['wallet', 'balances'] as const,
};

export interface TeamFilters {
  level?: number;
  paid?: 'true' | 'false';
  search?: string;
  currency: number;
}

const query = (values: Record<string, string | number | undefined>) =>
  Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined && v !== '')) as Record<
    string,
    string
  >;

export const partnersApi = {
  summary: () => api.get<TPartnerSummary>('/api/partners/me/'),
  saveSettings: (showContact: boolean) =>
    api.put<TPartnerSummary>('/api/partners/me/', { show_contact: showContact }),
  statistics: (currency: number) =>
    api.get<TPartnerStatistics>('/api/partners/statistics/', { query: { currency: String(currency) } }),
  team: (filters: TeamFilters, cursor?: string) =>
    api.get<TTeamPage>('/api/linear/', {
      query: query({ ...filters, cursor }),
    }),
  tops: (period: string, by: string, currency: number) =>
    api.get<TTops>('/api/linear/top/', { query: { period, by, currency: String(currency) } }),
  calculator: (partners: string, average: number) =>
    api.get<TCalculatorResult>('/api/partners/calculator/', {
      query: { partners, average: String(average) },
    }),
  wallet: () => api.get<TWalletBalances>('/api/wallet/'),
  payouts: () => api.get<TPayouts>('/api/wallet/payouts/'),
  requestPayout: (body: TPayoutBody) => api.post<TPayout>('/api/wallet/payouts/', body),
};
