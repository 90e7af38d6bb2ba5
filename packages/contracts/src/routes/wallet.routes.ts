import { defineRoute } from './define-route.js';

export const walletRoutes = {
  balances: defineRoute({
    method: 'GET',
    path: '/api/wallet/',
    auth: 'required',
    tags: ['wallet'],
    summary: 'My wallet: available, frozen, pending and reserved money per currency',
    response: { 200: 'ZWalletBalances' },
  }),
  transactions: defineRoute({
    method: 'GET',
    path: '/api/wallet/transactions/:currency/',
    auth: 'required',
    tags: ['wallet'],
    summary: 'My wallet transactions in one currency, newest first',
    params: 'ZWalletCurrencyParams',
    query: 'ZWalletTransactionsQuery',
    response: { 200: 'ZWalletTransactions' },
    errors: ['wallet.currency_unknown'],
  }),
};

export const subscriptionsRoutes = {
  mine: defineRoute({
    method: 'GET',
    path: '/api/subscriptions/me/',
    auth: 'required',
    tags: ['subscriptions'],
    summary: 'My premium subscription and the plan at my region’s price',
    response: { 200: 'ZPremiumState' },
  }),
  start: defineRoute({
    method: 'POST',
    path: '/api/subscriptions/',
    auth: 'required',
    tags: ['subscriptions'],
    summary: 'Get premium (or switch renewals back on); answers where to pay',
    body: 'ZPremiumCheckout',
    response: { 200: 'ZPremiumCheckoutStarted' },
    errors: [
      'payments.consent_required',
      'payments.method_unavailable',
      'payments.email_required',
      'payments.price_changed',
      'subscriptions.already_active',
    ],
  }),
  cancel: defineRoute({
    method: 'POST',
    path: '/api/subscriptions/cancel/',
    auth: 'required',
    tags: ['subscriptions'],
    summary: 'Cancel renewals (access runs to its date)',
    response: { 200: 'ZPremiumState' },
    errors: ['subscriptions.not_found'],
  }),
};
