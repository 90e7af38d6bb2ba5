import { defineRoute } from './define-route.js';

const tags = ['partners'];
const walletTags = ['wallet'];

/** The partner programme: my place in it, statistics, team, tops, calculator. */
export const partnersRoutes = {
  me: defineRoute({
    method: 'GET',
    path: '/api/partners/me/',
    auth: 'required',
    tags,
    summary: 'My reflinks, curator, levels with what unlocks them, and the hold',
    response: { 200: 'ZPartnerSummary' },
  }),
  saveSettings: defineRoute({
    method: 'PUT',
    path: '/api/partners/me/',
    auth: 'required',
    tags,
    summary: 'Whether my downline may see how to contact me',
    body: 'ZPartnerSettingsBody',
    response: { 200: 'ZPartnerSummary' },
  }),
  statistics: defineRoute({
    method: 'GET',
    path: '/api/partners/statistics/',
    auth: 'required',
    tags,
    summary: 'My partner statistics and the last 12 months of income and turnover',
    query: 'ZPartnerStatisticsQuery',
    response: { 200: 'ZPartnerStatistics' },
    errors: ['wallet.currency_unknown'],
  }),
  calculator: defineRoute({
    method: 'GET',
    path: '/api/partners/calculator/',
    auth: 'required',
    tags,
    summary: 'Monthly income from expected partners per level and their average purchase',
    query: 'ZCalculatorQuery',
    response: { 200: 'ZCalculatorResult' },
  }),
  team: defineRoute({
    method: 'GET',
    path: '/api/linear/',
    auth: 'required',
    tags,
    summary: 'My team by level, with the paid filter, search and each partner’s turnover',
    query: 'ZTeamQuery',
    response: { 200: 'ZTeamPage' },
    errors: ['wallet.currency_unknown'],
  }),
  tops: defineRoute({
    method: 'GET',
    path: '/api/linear/top/',
    auth: 'required',
    tags,
    summary: 'The tops list: rank, name, avatar and income or team size over a period',
    query: 'ZTopsQuery',
    response: { 200: 'ZTops' },
    errors: ['wallet.currency_unknown'],
  }),
};

/** Wallet money out: pay-out requests and transfers (to one's own credits, to another user). */
export const payoutsRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/api/wallet/payouts/',
    auth: 'required',
    tags: walletTags,
    summary: 'My pay-out requests, the requisites saved from the last one, and the minimums',
    response: { 200: 'ZPayouts' },
  }),
  request: defineRoute({
    method: 'POST',
    path: '/api/wallet/payouts/',
    auth: 'required',
    tags: walletTags,
    summary: 'Request a pay-out: the money is reserved until it is paid or rejected',
    body: 'ZPayoutBody',
    response: { 201: 'ZPayout' },
    errors: ['common.validation', 'wallet.insufficient', 'wallet.not_payable', 'wallet.currency_unknown'],
  }),
  creditRates: defineRoute({
    method: 'GET',
    path: '/api/wallet/transfers/credits/',
    auth: 'required',
    tags: walletTags,
    summary: 'How many credits one unit of each wallet currency buys',
    response: { 200: 'ZCreditRates' },
  }),
  toCredits: defineRoute({
    method: 'POST',
    path: '/api/wallet/transfers/credits/',
    auth: 'required',
    tags: walletTags,
    summary: 'Buy my own credits with wallet money at the configured rate',
    body: 'ZCreditsTransferBody',
    response: { 200: 'ZCreditsTransfer' },
    errors: ['wallet.insufficient', 'wallet.currency_unknown'],
  }),
  toUser: defineRoute({
    method: 'POST',
    path: '/api/wallet/transfers/user/',
    auth: 'required',
    tags: walletTags,
    summary: 'Send wallet money to another Mirra user by their profile',
    body: 'ZUserTransferBody',
    response: { 200: 'ZUserTransfer' },
    errors: ['common.validation', 'wallet.insufficient', 'wallet.currency_unknown'],
  }),
};
