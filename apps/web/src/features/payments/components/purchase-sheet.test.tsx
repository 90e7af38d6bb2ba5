import type { TPaymentCatalogue, TUser } from '@mirra/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-error';
import { useSession } from '../../../lib/session';
import { createTestI18n } from '../../../test/i18n';
import { paymentsApi } from '../api/payments.api';
import { checkoutNavigation, PurchaseSheet } from './purchase-sheet';

const products = (currency: number, scale: number) => [
  {
    id: 'credits_100',
    kind: 'credits' as const,
    credits: 100,
    days: 0,
    amount: 299 * scale,
    currency,
    stars: 150,
  },
  {
    id: 'unlimited_30',
    kind: 'unlimited' as const,
    credits: 0,
    days: 30,
    amount: 1299 * scale,
    currency,
    stars: 650,
  },
];
const RU: TPaymentCatalogue = {
  region: 'ru',
  currency: 643,
  products: products(643, 100),
  methods: ['test'],
  receipt_email_methods: [],
  stars_methods: [],
};
const INTL: TPaymentCatalogue = {
  region: 'intl',
  currency: 840,
  products: products(840, 1),
  methods: ['test'],
  receipt_email_methods: [],
  stars_methods: [],
};

let i18n: I18n;
beforeAll(async () => {
  i18n = await createTestI18n('en');
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  useSession.setState({ user: null });
});

/** Signed in with this email (null: a Telegram-only account). */
const signedIn = (email: string | null) => useSession.setState({ user: { id: 1, email } as TUser });
const tickBoxes = () => {
  fireEvent.click(screen.getByTestId('consent-offer'));
  fireEvent.click(screen.getByTestId('consent-privacy'));
};

async function renderSheet(language: string, preferred: 'credits' | 'unlimited' = 'credits') {
  await i18n.changeLanguage(language);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={['/generate/simple/?payment=old&x=1']}>
          <PurchaseSheet open onClose={() => {}} preferred={preferred} />
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
  return screen.findByTestId('purchase-sheet');
}

describe('purchase sheet', () => {
  it('shows the server’s prices in roubles for Russia and in dollars elsewhere, and changes region', async () => {
    vi.spyOn(paymentsApi, 'catalogue').mockResolvedValue(RU);
    const change = vi.spyOn(paymentsApi, 'changeRegion').mockResolvedValue(INTL);
    await renderSheet('ru');
    const pack = screen.getByTestId('purchase-product-credits_100');
    expect(within(pack).getByTestId('purchase-price').textContent).toMatch(/^299\s₽$/);
    expect(pack.textContent).toContain('100 кредитов');
    expect(screen.getByTestId('purchase-region').textContent).toBe('Цены в рублях (Россия)');
    fireEvent.click(screen.getByTestId('purchase-region-change'));
    await waitFor(() =>
      expect(
        within(screen.getByTestId('purchase-product-credits_100')).getByTestId('purchase-price').textContent,
      ).toMatch(/^2,99\s\$$/),
    );
    expect(change).toHaveBeenCalledWith('intl');
  });

  it('says to tick the boxes and orders nothing while either is unticked', async () => {
    vi.spyOn(paymentsApi, 'catalogue').mockResolvedValue(INTL);
    const create = vi.spyOn(paymentsApi, 'createOrder');
    await renderSheet('en');
    fireEvent.click(screen.getByTestId('consent-offer'));
    fireEvent.click(screen.getByTestId('purchase-submit'));
    expect(screen.getByTestId('purchase-error').textContent).toBe(
      'Please check the boxes to agree with the offer.',
    );
    expect(create).not.toHaveBeenCalled();
  });

  it('orders the chosen product with consent and goes to the checkout, to come back to this page', async () => {
    vi.spyOn(paymentsApi, 'catalogue').mockResolvedValue(INTL);
    const create = vi
      .spyOn(paymentsApi, 'createOrder')
      .mockResolvedValue({ uuid: 'u', confirmation_url: '/api/payments/test/checkout/u/' });
    const go = vi.spyOn(checkoutNavigation, 'go').mockImplementation(() => {});
    await renderSheet('en', 'unlimited');
    expect(screen.getByTestId('purchase-submit').textContent).toContain('Pay $12.99');
    fireEvent.click(screen.getByTestId('consent-offer'));
    fireEvent.click(screen.getByTestId('consent-privacy'));
    fireEvent.click(screen.getByTestId('purchase-submit'));
    await waitFor(() => expect(go).toHaveBeenCalledWith('/api/payments/test/checkout/u/'));
    expect(create).toHaveBeenCalledWith({
      product: 'unlimited_30',
      method: 'test',
      agree_offer: true,
      agree_privacy: true,
      return: '/generate/simple/?x=1',
      amount: 1299,
      currency: 840,
    });
  });

  it('asks an account without an email for the receipt’s email when paying through YooKassa, and sends it', async () => {
    vi.spyOn(paymentsApi, 'catalogue').mockResolvedValue({
      ...RU,
      methods: ['yookassa_bank_card', 'test'],
      receipt_email_methods: ['yookassa_bank_card'],
    });
    const create = vi
      .spyOn(paymentsApi, 'createOrder')
      .mockResolvedValue({ uuid: 'u', confirmation_url: 'https://yoomoney.example/checkout/u' });
    const go = vi.spyOn(checkoutNavigation, 'go').mockImplementation(() => {});
    signedIn(null);
    await renderSheet('en');
    const field = within(screen.getByTestId('purchase-sheet')).getByLabelText('Email for the receipt');
    tickBoxes();
    fireEvent.click(screen.getByTestId('purchase-submit'));
    expect(
      await screen.findByText('Enter an email: the receipt for this payment is sent there.'),
    ).toBeTruthy();
    fireEvent.input(field, { target: { value: 'not-an-email' } });
    fireEvent.click(screen.getByTestId('purchase-submit'));
    expect(await screen.findByText('Enter a valid email address.')).toBeTruthy();
    expect(create).not.toHaveBeenCalled();

    fireEvent.input(field, { target: { value: ' Buyer@Example.com ' } });
    fireEvent.click(screen.getByTestId('purchase-submit'));
    await waitFor(() => expect(go).toHaveBeenCalledWith('https://yoomoney.example/checkout/u'));
    expect(create).toHaveBeenCalledWith(
      expect.objectContaining({ method: 'yookassa_bank_card', email: 'buyer@example.com' }),
    );

    // Another way to pay, or an account with an email: nothing more is asked.
    fireEvent.click(screen.getByTestId('purchase-method-test'));
    expect(screen.queryByTestId('purchase-receipt-email')).toBeNull();
    cleanup();
    signedIn('me@example.com');
    await renderSheet('en');
    expect(screen.queryByTestId('purchase-receipt-email')).toBeNull();
  });

  it('asks for the receipt’s email and prices in Stars by what the server says of each way to pay', async () => {
    // Any method the server lists, whatever its name: the client knows no provider.
    vi.spyOn(paymentsApi, 'catalogue').mockResolvedValue({ ...RU, receipt_email_methods: ['test'] });
    signedIn(null);
    await renderSheet('en');
    expect(screen.getByTestId('purchase-receipt-email')).toBeTruthy();
    cleanup();
    vi.spyOn(paymentsApi, 'catalogue').mockResolvedValue({ ...INTL, stars_methods: ['test'] });
    await renderSheet('en');
    expect(
      within(screen.getByTestId('purchase-product-credits_100')).getByTestId('purchase-price').textContent,
    ).toBe('150 Stars');
  });

  it('shows the new price instead of paying when the server would charge another one', async () => {
    const catalogue = vi
      .spyOn(paymentsApi, 'catalogue')
      .mockResolvedValueOnce(INTL)
      .mockResolvedValue({ ...INTL, products: products(840, 2) });
    const create = vi.spyOn(paymentsApi, 'createOrder').mockRejectedValue(
      new ApiError(409, {
        detail: 'The price has changed. Check the new price and pay again.',
        amount: 598,
        currency: 840,
        code: 'payments.price_changed',
      }),
    );
    const go = vi.spyOn(checkoutNavigation, 'go').mockImplementation(() => {});
    await renderSheet('en');
    expect(screen.getByTestId('purchase-submit').textContent).toContain('Pay $2.99');
    tickBoxes();
    fireEvent.click(screen.getByTestId('purchase-submit'));
    expect((await screen.findByTestId('purchase-error')).textContent).toBe(
      'New price: $5.98. Check it and pay again.',
    );
    expect(create).toHaveBeenCalledWith(expect.objectContaining({ amount: 299, currency: 840 }));
    await waitFor(() => expect(screen.getByTestId('purchase-submit').textContent).toContain('Pay $5.98'));
    expect(catalogue).toHaveBeenCalledTimes(2);
    expect(go).not.toHaveBeenCalled();
  });

  it('inside the Mini App sells for Stars through Telegram’s own payment sheet, priced in Stars', async () => {
    vi.spyOn(paymentsApi, 'catalogue').mockResolvedValue({
      ...INTL,
      methods: ['stars', 'test'],
      stars_methods: ['stars'],
    });
    const create = vi
      .spyOn(paymentsApi, 'createOrder')
      .mockResolvedValue({ uuid: 'u-1', confirmation_url: 'https://t.me/$abc' });
    const go = vi.spyOn(checkoutNavigation, 'go').mockImplementation(() => {});
    const pay = vi.spyOn(checkoutNavigation, 'payInTelegram').mockResolvedValueOnce('cancelled');
    await renderSheet('en');
    expect(
      within(screen.getByTestId('purchase-product-credits_100')).getByTestId('purchase-price').textContent,
    ).toBe('150 Stars');
    fireEvent.click(screen.getByTestId('consent-offer'));
    fireEvent.click(screen.getByTestId('consent-privacy'));
    fireEvent.click(screen.getByTestId('purchase-submit'));
    await waitFor(() => expect(pay).toHaveBeenCalledWith('https://t.me/$abc'));
    expect(create).toHaveBeenCalledWith(expect.objectContaining({ product: 'credits_100', method: 'stars' }));
    // Closed without paying: said so, nothing else happens.
    expect((await screen.findByTestId('purchase-error')).textContent).toBe(
      'The payment in Telegram was not completed. Nothing was charged.',
    );
    expect(go).not.toHaveBeenCalled();
  });
});
