import type { TPremiumState, TUser } from '@mirra/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-error';
import { useSession } from '../../../lib/session';
import { createTestI18n } from '../../../test/i18n';
import { subscriptionApi } from '../api/subscription.api';
import { checkoutNavigation } from './purchase-sheet';
import { SubscriptionView } from './subscription-view';

let i18n: I18n;
beforeAll(async () => {
  i18n = await createTestI18n('en');
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  useSession.setState({ user: null });
});

const plan = {
  id: 'premium_monthly',
  period_days: 30,
  trial_days: 3,
  credits: 300,
  trial_credits: 50,
  amount: 99_000,
  currency: 643,
  stars: 650,
};
const NONE: TPremiumState = {
  plan,
  region: 'ru',
  methods: ['test', 'balance'],
  status: 'none',
  premium: false,
  trial_available: true,
  trial_methods: ['test'],
  receipt_email_methods: [],
  stars_methods: [],
  auto_renew: false,
  access_until: null,
  next_charge_at: null,
  amount: null,
  currency: null,
  failed_attempts: 0,
};
const ACTIVE: TPremiumState = {
  ...NONE,
  status: 'active',
  premium: true,
  trial_available: false,
  trial_methods: [],
  auto_renew: true,
  access_until: '2030-02-01T12:00:00.000Z',
  next_charge_at: '2030-02-01T12:00:00.000Z',
  amount: 99_000,
  currency: 643,
};

/** Where the view sent the person (its return marker after paying in Telegram). */
function LocationProbe() {
  const location = useLocation();
  return <span data-testid="location">{`${location.pathname}${location.search}`}</span>;
}

async function renderView(language = 'en') {
  await i18n.changeLanguage(language);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={['/settings/subscription/']}>
          <SubscriptionView />
          <LocationProbe />
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

describe('subscription settings', () => {
  it('words the trial offer with each number’s own plural and the period as the plan line does', async () => {
    const oneEach = { ...NONE, plan: { ...plan, trial_days: 1, trial_credits: 1, period_days: 31 } };
    vi.spyOn(subscriptionApi, 'mine').mockResolvedValue(oneEach);
    await renderView('ru');
    expect((await screen.findByTestId('subscription-offer')).textContent).toMatch(
      /^1 день бесплатно и 1 кредит, затем 990\s₽ каждый 31 день$/,
    );
    cleanup();
    await renderView('en');
    expect((await screen.findByTestId('subscription-offer')).textContent).toMatch(
      /^1 day free with 1 credit, then ₽990 every 31 days$/,
    );
  });

  it('offers the trial at the region’s price and needs both boxes before going to pay', async () => {
    vi.spyOn(subscriptionApi, 'mine').mockResolvedValue(NONE);
    const start = vi
      .spyOn(subscriptionApi, 'start')
      .mockResolvedValue({ uuid: 'u', confirmation_url: '/api/payments/test/checkout/u/' });
    const go = vi.spyOn(checkoutNavigation, 'go').mockImplementation(() => {});
    await renderView('ru');
    expect((await screen.findByTestId('subscription-offer')).textContent).toMatch(
      /^3 дня бесплатно и 50 кредитов, затем 990\s₽ каждые 30 дней$/,
    );
    expect(screen.getByTestId('subscription-status').textContent).toBe('Нет подписки');
    fireEvent.click(screen.getByTestId('subscription-get-access'));
    expect(screen.getByTestId('subscription-error').textContent).toBe(
      'Пожалуйста, отметьте галочки, чтобы согласиться с офертой.',
    );
    expect(start).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('consent-offer'));
    fireEvent.click(screen.getByTestId('consent-privacy'));
    fireEvent.click(screen.getByTestId('subscription-get-access'));
    await waitFor(() => expect(go).toHaveBeenCalledWith('/api/payments/test/checkout/u/'));
    expect(start).toHaveBeenCalledWith({
      method: 'test',
      agree_offer: true,
      agree_privacy: true,
      return: '/settings/subscription/',
      amount: 99_000,
      currency: 643,
    });
  });

  it('asks a Telegram-only account for the receipt’s email with YooKassa, and shows a changed price instead of paying', async () => {
    useSession.setState({ user: { id: 1, email: null } as TUser });
    const mine = vi
      .spyOn(subscriptionApi, 'mine')
      .mockResolvedValueOnce({
        ...NONE,
        methods: ['yookassa_bank_card'],
        trial_methods: [],
        receipt_email_methods: ['yookassa_bank_card'],
      })
      .mockResolvedValue({
        ...NONE,
        methods: ['yookassa_bank_card'],
        trial_methods: [],
        receipt_email_methods: ['yookassa_bank_card'],
        plan: { ...plan, amount: 129_000 },
      });
    const start = vi.spyOn(subscriptionApi, 'start').mockRejectedValue(
      new ApiError(409, {
        detail: 'The price has changed. Check the new price and pay again.',
        amount: 129_000,
        currency: 643,
        code: 'payments.price_changed',
      }),
    );
    const go = vi.spyOn(checkoutNavigation, 'go').mockImplementation(() => {});
    await renderView('en');
    const field = await screen.findByLabelText('Email for the receipt');
    fireEvent.click(screen.getByTestId('consent-offer'));
    fireEvent.click(screen.getByTestId('consent-privacy'));
    fireEvent.click(screen.getByTestId('subscription-get-access'));
    expect(
      await screen.findByText('Enter an email: the receipt for this payment is sent there.'),
    ).toBeTruthy();
    expect(start).not.toHaveBeenCalled();
    fireEvent.input(field, { target: { value: 'buyer@example.com' } });
    fireEvent.click(screen.getByTestId('subscription-get-access'));
    expect((await screen.findByTestId('subscription-error')).textContent).toBe(
      'New price: ₽1,290. Check it and pay again.',
    );
    expect(start).toHaveBeenCalledWith(
      expect.objectContaining({ email: 'buyer@example.com', amount: 99_000, currency: 643 }),
    );
    await waitFor(() =>
      expect(screen.getByTestId('subscription-offer').textContent).toBe('₽1,290 every 30 days'),
    );
    expect(mine).toHaveBeenCalledTimes(2);
    expect(go).not.toHaveBeenCalled();
  });

  it('shows the plan’s dates and cancels renewals after a confirmation', async () => {
    vi.spyOn(subscriptionApi, 'mine').mockResolvedValue(ACTIVE);
    const cancel = vi
      .spyOn(subscriptionApi, 'cancel')
      .mockResolvedValue({ ...ACTIVE, auto_renew: false, next_charge_at: null });
    await renderView('en');
    expect((await screen.findByTestId('subscription-status')).textContent).toBe('Premium is on');
    expect(screen.getByTestId('subscription-price').textContent).toBe('₽990 every 30 days');
    expect(screen.getByTestId('subscription-next-charge').textContent).toBe('February 1, 2030');
    expect(screen.queryByTestId('subscription-checkout')).toBeNull();
    fireEvent.click(screen.getByTestId('subscription-cancel'));
    expect(screen.getByTestId('subscription-cancel-confirm').textContent).toContain(
      'Premium stays on until February 1, 2030.',
    );
    fireEvent.click(screen.getByTestId('subscription-cancel-yes'));
    await waitFor(() =>
      expect(screen.getByTestId('subscription-next-charge').textContent).toBe('Renewals are off'),
    );
    expect(cancel).toHaveBeenCalled();
    // With access left and renewals off, "get access" switches them back on.
    expect(screen.getByTestId('subscription-get-access').textContent).toBe('Get access: renew again');
  });

  it('Stars in the Mini App: Telegram’s payment sheet opens over the app, then the return marker', async () => {
    vi.spyOn(subscriptionApi, 'mine').mockResolvedValue({
      ...NONE,
      region: 'intl',
      plan: { ...plan, amount: 1_299, currency: 840 },
      methods: ['stars'],
      trial_methods: [],
      stars_methods: ['stars'],
    });
    const start = vi.spyOn(subscriptionApi, 'start').mockResolvedValue({
      uuid: '0b9d6c52-6f1e-4a41-9d2b-1f3c2a4b5c6d',
      confirmation_url: 'https://t.me/$sub',
    });
    const go = vi.spyOn(checkoutNavigation, 'go').mockImplementation(() => {});
    const pay = vi
      .spyOn(checkoutNavigation, 'payInTelegram')
      .mockResolvedValueOnce('cancelled')
      .mockResolvedValueOnce('paid');
    await renderView('en');
    expect((await screen.findByTestId('subscription-offer')).textContent).toBe('650 Stars every 30 days');
    fireEvent.click(screen.getByTestId('consent-offer'));
    fireEvent.click(screen.getByTestId('consent-privacy'));
    fireEvent.click(screen.getByTestId('subscription-get-access'));
    // Closed without paying: said so, and the person stays where they were.
    expect((await screen.findByTestId('subscription-error')).textContent).toBe(
      'The payment in Telegram was not completed. Nothing was charged.',
    );
    expect(screen.getByTestId('location').textContent).toBe('/settings/subscription/');
    fireEvent.click(screen.getByTestId('subscription-get-access'));
    await waitFor(() =>
      expect(screen.getByTestId('location').textContent).toBe(
        '/settings/subscription/?payment=0b9d6c52-6f1e-4a41-9d2b-1f3c2a4b5c6d',
      ),
    );
    expect(pay).toHaveBeenCalledWith('https://t.me/$sub');
    expect(start).toHaveBeenCalledWith(
      expect.objectContaining({ method: 'stars', amount: 650, currency: expect.any(Number) }),
    );
    // Never sent away to the invoice link as if it were a page.
    expect(go).not.toHaveBeenCalled();
  });
});
