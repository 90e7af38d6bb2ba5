import { routes, type RouteBody, type RouteQuery, type TPayoutBody } from '@mirra/contracts';
import { api } from '../../../lib/api-client';

export const partnerKeys = {
  all: ['partners'] as const,
  summary: () => ['partners', 'summary'] as const,
  statistics: (currency: number) => ['partners', 'statistics', currency] as const,
  team: (filters: TeamFilters) => ['partners', 'team', filters] as const,
  tops: (period: string, by: string, currency: number) => ['partners', 'tops', period, by, currency] as const,
  payouts: () => ['partners', 'payouts'] as const,
  creditRates: () => ['partners', 'credit-rates'] as const,
  recipient: (uuid: string) => ['users', 'by_id', uuid] as const,
};

/** The team list's filters: its route's query without the page cursor. */
export type TeamFilters = Omit<RouteQuery<typeof routes.partners.team>, 'cursor'>;
type TopsQuery = RouteQuery<typeof routes.partners.tops>;

export const partnersApi = {
  summary: () => api(routes.partners.me),
  saveSettings: (showContact: boolean) =>
    api(routes.partners.saveSettings, { body: { show_contact: showContact } }),
  statistics: (currency: number) => api(routes.partners.statistics, { query: { currency } }),
  team: (filters: TeamFilters, cursor?: string) =>
    api(routes.partners.team, { query: { ...filters, cursor } }),
  tops: (period: NonNullable<TopsQuery['period']>, by: NonNullable<TopsQuery['by']>, currency: number) =>
    api(routes.partners.tops, { query: { period, by, currency } }),
  calculator: (partners: string, average: number) =>
    api(routes.partners.calculator, { query: { partners, average } }),
  /** My pay-outs, saved requisites, minimums and wallet balances. */
  payouts: () => api(routes.payouts.list),
  requestPayout: (body: TPayoutBody) => api(routes.payouts.request, { body }),
  /** My wallet balances (cached under the wallet's own key, so both screens move together). */
  balances: () => api(routes.wallet.balances),
  /** Credits one major unit of each wallet currency buys. */
  creditRates: () => api(routes.payouts.creditRates),
  toCredits: (body: RouteBody<typeof routes.payouts.toCredits>) => api(routes.payouts.toCredits, { body }),
  toUser: (body: RouteBody<typeof routes.payouts.toUser>) => api(routes.payouts.toUser, { body }),
  /** Another user's public profile, to show whom the money goes to before it is sent. */
  recipient: (uuid: string) => api(routes.users.byId, { query: { id: uuid } }),
};
