import type { TPaymentCatalogue, TWalletTransactions } from '@mirra/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestI18n } from '../../../test/i18n';
import { paymentsApi } from '../api/payments.api';
import { walletApi } from '../api/wallet.api';
import { checkoutNavigation } from './purchase-sheet';
import { WalletView, type WalletViewName } from './wallet-view';

let i18n: I18n;
beforeAll(async () => {
  i18n = await createTestI18n('en');
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const balances = {
  default_currency: 643,
  balances: [
    { currency: 643, available: 150_050, frozen: 40_000, pending: 0, reserved: 0, payable: 0 },
    { currency: 840, available: 1_250, frozen: 0, pending: 0, reserved: 0, payable: 0 },
  ],
};
const CATALOGUE: TPaymentCatalogue = {
  region: 'ru',
  currency: 643,
  products: [],
  methods: ['test', 'balance'],
  receipt_email_methods: [],
  stars_methods: [],
};
const empty: TWalletTransactions = { results: [], next: null };

/** The address the wallet is at, as the browser's address bar would show it. */
function Address() {
  const location = useLocation();
  return <output data-testid="address">{location.pathname + location.search}</output>;
}

async function renderWallet(view: WalletViewName, currency: number, language = 'en', address = '/') {
  await i18n.changeLanguage(language);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={[address]}>
          <WalletView view={view} currency={currency} />
          <Address />
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

describe('wallet', () => {
  it('shows the real balance with the currency’s sign, not a made-up zero', async () => {
    vi.spyOn(walletApi, 'balances').mockResolvedValue(balances);
    vi.spyOn(walletApi, 'transactions').mockResolvedValue(empty);
    await renderWallet('transactions', 643, 'ru');
    await waitFor(() => expect(screen.getByTestId('wallet-balance').textContent).toMatch(/^1\s500,50\s₽$/));
    expect(screen.getByTestId('wallet-held').textContent).toMatch(/Заморожено: 400\s₽/);
    cleanup();
    await renderWallet('transactions', 840, 'en');
    await waitFor(() => expect(screen.getByTestId('wallet-balance').textContent).toBe('$12.50'));
  });

  it('asks for the transactions of the chosen filter and says when there are none', async () => {
    vi.spyOn(walletApi, 'balances').mockResolvedValue(balances);
    const list = vi.spyOn(walletApi, 'transactions').mockImplementation(async (_currency, filter) =>
      filter === 'frozen'
        ? {
            results: [
              {
                id: 7,
                currency: 643,
                amount: 40_000,
                status: 'in',
                kind: 'referral_bonus',
                frozen_until: '2030-01-15T00:00:00.000Z',
                frozen: true,
                ref: null,
                created_at: '2030-01-01T00:00:00.000Z',
              },
            ],
            next: null,
          }
        : empty,
    );
    await renderWallet('transactions', 643);
    expect(await screen.findByText('No transactions')).toBeTruthy();
    fireEvent.click(screen.getByTestId('wallet-filter-frozen'));
    const entry = await screen.findByTestId('wallet-entry');
    expect(entry.dataset.status).toBe('frozen');
    expect(entry.textContent).toContain('Referral bonus');
    expect(screen.getByTestId('wallet-entry-amount').textContent).toBe('+₽400');
    expect(list).toHaveBeenLastCalledWith(643, 'frozen', null);
  });

  it('keeps the history filter in the address, so a reload, back or a shared link shows the same list', async () => {
    vi.spyOn(walletApi, 'balances').mockResolvedValue(balances);
    const list = vi.spyOn(walletApi, 'transactions').mockResolvedValue(empty);
    await renderWallet('transactions', 643, 'en', '/wallet/transactions/643/');
    fireEvent.click(await screen.findByTestId('wallet-filter-withdrawals'));
    expect(screen.getByTestId('address').textContent).toBe('/wallet/transactions/643/?filter=withdrawals');
    await waitFor(() => expect(list).toHaveBeenLastCalledWith(643, 'withdrawals', null));
    // Another currency keeps the filter; pressing the chosen filter again clears it.
    expect(screen.getByTestId('wallet-currency-840').getAttribute('href')).toBe(
      '/wallet/transactions/840/?filter=withdrawals',
    );
    fireEvent.click(screen.getByTestId('wallet-filter-withdrawals'));
    expect(screen.getByTestId('address').textContent).toBe('/wallet/transactions/643/');
    await waitFor(() => expect(list).toHaveBeenLastCalledWith(643, null, null));
    cleanup();

    // Opened from the address (a reload, back, a shared link): the filter is on, and asked for.
    await renderWallet('transactions', 643, 'en', '/wallet/transactions/643/?filter=frozen');
    await waitFor(() => expect(list).toHaveBeenLastCalledWith(643, 'frozen', null));
    expect(screen.getByTestId('wallet-filter-frozen').getAttribute('aria-pressed')).toBe('true');
    cleanup();
    // A filter the wallet does not have is ignored.
    await renderWallet('transactions', 643, 'en', '/wallet/transactions/643/?filter=nonsense');
    await waitFor(() => expect(list).toHaveBeenLastCalledWith(643, null, null));
  });

  it('tops up through a provider (never from the balance) with the amount in minor units', async () => {
    vi.spyOn(walletApi, 'balances').mockResolvedValue(balances);
    vi.spyOn(paymentsApi, 'catalogue').mockResolvedValue(CATALOGUE);
    const create = vi
      .spyOn(paymentsApi, 'createOrder')
      .mockResolvedValue({ uuid: 'u', confirmation_url: '/api/payments/test/checkout/u/' });
    const go = vi.spyOn(checkoutNavigation, 'go').mockImplementation(() => {});
    await renderWallet('payIn', 643);
    await screen.findByTestId('wallet-pay-in');
    expect(screen.queryByTestId('method-balance')).toBeNull();
    const amount = screen.getByTestId('wallet-pay-in-amount');
    fireEvent.input(amount, { target: { value: '5' } });
    fireEvent.click(screen.getByTestId('wallet-pay-in-submit'));
    expect(screen.getByTestId('wallet-pay-in-error').textContent).toBe('From ₽100 to ₽100,000');
    fireEvent.input(amount, { target: { value: '1 500,50' } });
    fireEvent.click(screen.getByTestId('wallet-pay-in-submit'));
    expect(screen.getByTestId('wallet-pay-in-error').textContent).toBe(
      'Please check the boxes to agree with the offer.',
    );
    fireEvent.click(screen.getByTestId('consent-offer'));
    fireEvent.click(screen.getByTestId('consent-privacy'));
    fireEvent.click(screen.getByTestId('wallet-pay-in-submit'));
    await waitFor(() => expect(go).toHaveBeenCalledWith('/api/payments/test/checkout/u/'));
    expect(create).toHaveBeenCalledWith({
      product: 'wallet_top_up',
      amount: 150_050,
      currency: 643,
      method: 'test',
      agree_offer: true,
      agree_privacy: true,
      return: '/wallet/transactions/643/',
    });
  });
});
