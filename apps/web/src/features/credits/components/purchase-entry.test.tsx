import type { TPaymentCatalogue } from '@mirra/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestI18n } from '../../../test/i18n';
import { creditsApi } from '../api/credits.api';
import { ChargeDialogs } from './charge-dialogs';
import { paymentsApi } from '../../payments/api/payments.api';
import { PaymentReturn } from './payment-return';
import CreditsChip from './credits-chip';
import { walletApi } from '../../payments/api/wallet.api';
import { formatMoney } from '../../payments/money';

const CATALOGUE: TPaymentCatalogue = {
  region: 'intl',
  currency: 840,
  methods: ['test'],
  receipt_email_methods: [],
  stars_methods: [],
  products: [
    { id: 'credits_100', kind: 'credits', credits: 100, days: 0, amount: 299, currency: 840, stars: 150 },
    { id: 'unlimited_30', kind: 'unlimited', credits: 0, days: 30, amount: 1299, currency: 840, stars: 650 },
  ],
};
const UUID = '0b4c2a62-4c43-4a4e-9a55-1f1f0d6f7a10';

let i18n: I18n;
beforeAll(async () => {
  i18n = await createTestI18n('en');
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function wrap(children: ReactNode, path = '/generate/simple/') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={[path]}>{children}</MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

const chosenProduct = () =>
  (screen.getByTestId('purchase-sheet').querySelector('input[name="product"]:checked') as HTMLInputElement)
    .value;

describe('ways into the purchase sheet', () => {
  it('opens it with a credit pack chosen from the credit balance dialog’s "buy more"', async () => {
    vi.spyOn(paymentsApi, 'catalogue').mockResolvedValue(CATALOGUE);
    vi.spyOn(creditsApi, 'balance').mockResolvedValue({ balance: 1, unlimited_until: null });
    wrap(
      <ChargeDialogs
        refusal={{ kind: 'credits', difference: 2, balance: 1, required: 3, at: Date.now() }}
        onClose={() => {}}
        onSkip={() => {}}
      />,
    );
    fireEvent.click(screen.getByTestId('credits-buy-more'));
    await screen.findByTestId('purchase-sheet');
    expect(chosenProduct()).toBe('credits_100');
  });

  it('opens it with the unlimited package chosen from the limit dialog’s "purchase"', async () => {
    vi.spyOn(paymentsApi, 'catalogue').mockResolvedValue(CATALOGUE);
    wrap(
      <ChargeDialogs
        refusal={{ kind: 'limit', waitSeconds: 30, first: 5, seconds: 30, at: Date.now() }}
        onClose={() => {}}
        onSkip={() => {}}
      />,
    );
    fireEvent.click(screen.getByTestId('limit-purchase'));
    await screen.findByTestId('purchase-sheet');
    expect(chosenProduct()).toBe('unlimited_30');
  });
});

describe('the generation limit dialog', () => {
  it('words the pause with the plural rules of the language', async () => {
    const limit = (seconds: number) => (
      <ChargeDialogs
        refusal={{ kind: 'limit', waitSeconds: seconds, first: 5, seconds, at: Date.now() }}
        onClose={() => {}}
        onSkip={() => {}}
      />
    );
    wrap(limit(30));
    expect(screen.getByTestId('limit-text').textContent).toContain('a 30-second pause');
    cleanup();
    await i18n.changeLanguage('ru');
    try {
      wrap(limit(21));
      expect(screen.getByTestId('limit-text').textContent).toContain('пауза 21 секунда');
      cleanup();
      wrap(limit(30));
      expect(screen.getByTestId('limit-text').textContent).toContain('пауза 30 секунд');
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});

describe('buying credits at any time', () => {
  it('opens the credit balance dialog from the header without a shortfall, and its "buy more" offers packs', async () => {
    vi.spyOn(paymentsApi, 'catalogue').mockResolvedValue(CATALOGUE);
    vi.spyOn(creditsApi, 'balance').mockResolvedValue({ balance: 1234, unlimited_until: null });
    wrap(<CreditsChip />, '/');
    const chip = screen.getByTestId('header-credits');
    await within(chip).findByText('1,234');
    fireEvent.click(chip);
    const dialog = await screen.findByTestId('credits-dialog');
    expect(within(dialog).getByTestId('credits-balance').textContent).toBe('1234');
    expect(within(dialog).queryByTestId('credits-shortfall')).toBeNull();
    expect(within(dialog).queryByTestId('credits-unlimited-until')).toBeNull();
    fireEvent.click(within(dialog).getByTestId('credits-buy-more'));
    await screen.findByTestId('purchase-sheet');
    expect(chosenProduct()).toBe('credits_100');
  });

  it('says until when a running unlimited package lasts', async () => {
    vi.spyOn(creditsApi, 'balance').mockResolvedValue({
      balance: 5,
      unlimited_until: '2026-12-28T10:00:00.000Z',
    });
    wrap(<CreditsChip />, '/');
    fireEvent.click(screen.getByTestId('header-credits'));
    expect((await screen.findByTestId('credits-unlimited-until')).textContent).toMatch(
      /^Unlimited until .*28.*2026/,
    );
  });
});

describe('back from the checkout', () => {
  it('after a wallet top-up shows the wallet money of that currency, not the credits', async () => {
    vi.spyOn(paymentsApi, 'order').mockResolvedValue({
      uuid: UUID,
      product: 'wallet_topup',
      purpose: 'wallet_topup',
      status: 'paid',
      amount: 200000,
      currency: 643,
      credits: 0,
      unlimited_days: 0,
      created_at: '2026-05-01T00:00:00.000Z',
    });
    const credits = vi.spyOn(creditsApi, 'balance').mockResolvedValue({ balance: 7, unlimited_until: null });
    vi.spyOn(walletApi, 'balances').mockResolvedValue({
      default_currency: 643,
      balances: [
        { currency: 840, available: 500, frozen: 0, pending: 0, reserved: 0, payable: 0 },
        { currency: 643, available: 250050, frozen: 0, pending: 0, reserved: 0, payable: 0 },
      ],
    } as Awaited<ReturnType<typeof walletApi.balances>>);
    wrap(<PaymentReturn />, `/wallet/transactions/643/?payment=${UUID}`);
    const result = await screen.findByTestId('payment-result');
    expect(within(result).getByText('Wallet balance')).toBeTruthy();
    await expect
      .poll(() => within(result).getByTestId('payment-result-balance').textContent)
      .toBe(formatMoney(250050, 643, 'en'));
    expect(credits).not.toHaveBeenCalled();
  });

  it('after the unlimited package says until when it runs', async () => {
    vi.spyOn(paymentsApi, 'order').mockResolvedValue({
      uuid: UUID,
      product: 'unlimited_30',
      purpose: 'product',
      status: 'paid',
      amount: 1299,
      currency: 840,
      credits: 0,
      unlimited_days: 30,
      created_at: '2026-05-01T00:00:00.000Z',
    });
    vi.spyOn(creditsApi, 'balance').mockResolvedValue({
      balance: 3,
      unlimited_until: '2026-05-31T00:00:00.000Z',
    });
    wrap(<PaymentReturn />, `/settings/subscription/?payment=${UUID}`);
    const result = await screen.findByTestId('payment-result');
    expect(within(result).getByText('Credit balance')).toBeTruthy();
    expect((await within(result).findByTestId('payment-result-unlimited')).textContent).toMatch(
      /^Unlimited until .*2026/,
    );
  });

  it('shows a paid order with the new balance', async () => {
    vi.spyOn(paymentsApi, 'order').mockResolvedValue({
      uuid: UUID,
      product: 'credits_100',
      purpose: 'product',
      status: 'paid',
      amount: 299,
      currency: 840,
      credits: 100,
      unlimited_days: 0,
      created_at: '2026-05-01T00:00:00.000Z',
    });
    vi.spyOn(creditsApi, 'balance').mockResolvedValue({ balance: 101, unlimited_until: null });
    wrap(<PaymentReturn />, `/generate/simple/?payment=${UUID}`);
    const result = await screen.findByTestId('payment-result');
    expect(result.getAttribute('data-status')).toBe('paid');
    expect(screen.getByText('Payment received')).toBeTruthy();
    expect((await within(result).findByText('101')).getAttribute('data-testid')).toBe(
      'payment-result-balance',
    );
  });

  it('back through the cancel link: closes the checkout once and says nothing was charged', async () => {
    const cancelled = {
      uuid: UUID,
      product: 'credits_100',
      purpose: 'product' as const,
      status: 'cancelled' as const,
      amount: 299,
      currency: 840,
      credits: 100,
      unlimited_days: 0,
      created_at: '2026-05-01T00:00:00.000Z',
    };
    const cancel = vi.spyOn(paymentsApi, 'cancelOrder').mockResolvedValue(cancelled);
    const order = vi.spyOn(paymentsApi, 'order').mockResolvedValue(cancelled);
    wrap(<PaymentReturn />, `/generate/simple/?payment=${UUID}&payment_cancelled=1`);
    const result = await screen.findByTestId('payment-result');
    expect(result.getAttribute('data-status')).toBe('cancelled');
    expect(screen.getByText('You cancelled the payment. Nothing was charged.')).toBeTruthy();
    expect(cancel).toHaveBeenCalledTimes(1);
    expect(cancel).toHaveBeenCalledWith(UUID);
    expect(order).not.toHaveBeenCalled();
  });

  it('asks nothing of the server without an order in the address', () => {
    const order = vi.spyOn(paymentsApi, 'order');
    wrap(<PaymentReturn />, '/generate/simple/?payment=not-a-uuid');
    expect(order).not.toHaveBeenCalled();
    expect(screen.queryByTestId('payment-result')).toBeNull();
  });
});
