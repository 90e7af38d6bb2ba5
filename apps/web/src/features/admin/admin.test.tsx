import type { TAdminDashboard, TAdminUserDetail, TAdminUserMoney } from '@mirra/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestI18n } from '../../test/i18n';
import { ApiError } from '../../lib/api-error';
import { useSession } from '../../lib/session';
import { adminApi } from './api/admin.api';
import { AuditLog } from './components/audit-log';
import { Dashboard } from './components/dashboard';
import { FailedGenerations } from './components/failed-generations';
import { PaymentSearch } from './components/payment-search';
import { PayoutQueue } from './components/payout-queue';
import { UserDetail } from './components/user-detail';
import { UserMoney } from './components/user-money';

const UUID = '0b4c2a62-4c43-4a4e-9a55-1f1f0d6f7a10';
/** Text with the number format's no-break spaces as plain ones. */
const plain = (text: string | null) => (text ?? '').replace(/\u00a0/g, ' ');
const DETAIL: TAdminUserDetail = {
  user: {
    uuid: UUID,
    email: 'ann@example.com',
    first_name: 'Ann',
    last_name: '',
    username: 'ann',
    telegram_id: null,
    telegram_username: null,
    staff_role: null,
    banned: false,
    date_joined: '2026-01-01T00:00:00.000Z',
  },
  language: 'en',
  last_login: null,
  balance: 5,
  models: [],
  generations: [],
  credit_entries: [],
  audit: [],
};

let i18n: I18n;
beforeAll(async () => {
  i18n = await createTestI18n('en');
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const MONEY: TAdminUserMoney = {
  orders: [
    {
      uuid: '6f1c2a62-4c43-4a4e-9a55-1f1f0d6f7a11',
      product: 'credits_100',
      purpose: 'product',
      provider: 'yookassa',
      method: 'yookassa_card',
      status: 'paid',
      amount: 49_000,
      currency: 643,
      credits: 100,
      provider_payment_id: 'yk-1',
      created_at: '2026-01-02T00:00:00.000Z',
      paid_at: '2026-01-02T00:01:00.000Z',
      refunded_at: null,
      amount_refunded: 0,
      refundable: true,
    },
  ],
  wallet: {
    balances: [{ currency: 643, available: 1000, frozen: 0, pending: 0, reserved: 0, payable: 0 }],
    entries: [],
  },
  subscription: null,
};

async function showUser() {
  vi.spyOn(adminApi, 'user').mockResolvedValue(DETAIL);
  vi.spyOn(adminApi, 'userMoney').mockResolvedValue(MONEY);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter>
          <UserDetail uuid={UUID} />
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
  await screen.findByTestId('admin-credits');
}

const type = (testId: string, value: string) =>
  fireEvent.input(screen.getByTestId(testId), { target: { value } });
const valueOf = (testId: string) => (screen.getByTestId(testId) as HTMLInputElement).value;

describe('staff credit change', () => {
  it('refuses what the server would, in the staff member’s language, without asking it', async () => {
    const change = vi.spyOn(adminApi, 'changeCredits');
    await showUser();
    type('admin-credits-amount', '2.5');
    type('admin-credits-reason', 'Goodwill');
    fireEvent.click(screen.getByTestId('admin-credits-submit'));
    await screen.findByText('Enter a whole number other than zero, e.g. 50 or -20.');
    type('admin-credits-amount', '-100001');
    fireEvent.click(screen.getByTestId('admin-credits-submit'));
    await screen.findByText('At most 100000 credits at a time.');
    type('admin-credits-amount', '50');
    type('admin-credits-reason', '   ');
    fireEvent.click(screen.getByTestId('admin-credits-submit'));
    await screen.findByText(i18n.t('admin.reasonRequired'));
    expect(change).not.toHaveBeenCalled();
  });

  it('keeps the amount and reason when the change fails, retries with the same key, and starts afresh after it applies', async () => {
    const change = vi
      .spyOn(adminApi, 'changeCredits')
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValue({ applied: true, balance: 55 });
    await showUser();
    type('admin-credits-amount', '50');
    type('admin-credits-reason', 'Goodwill');
    fireEvent.click(screen.getByTestId('admin-credits-submit'));
    await screen.findByText(i18n.t('errors.network'));
    expect([valueOf('admin-credits-amount'), valueOf('admin-credits-reason')]).toEqual(['50', 'Goodwill']);
    fireEvent.click(screen.getByTestId('admin-credits-submit'));
    await waitFor(() => expect(valueOf('admin-credits-amount')).toBe(''));
    type('admin-credits-amount', '-5');
    type('admin-credits-reason', 'Mistake');
    fireEvent.click(screen.getByTestId('admin-credits-submit'));
    await waitFor(() => expect(change).toHaveBeenCalledTimes(3));
    const bodies = change.mock.calls.map(([, body]) => body);
    expect(bodies[0]).toMatchObject({ delta: 50, reason: 'Goodwill' });
    expect(bodies[1]!.idempotency_key).toBe(bodies[0]!.idempotency_key);
    expect(bodies[2]).toMatchObject({ delta: -5, reason: 'Mistake' });
    expect(bodies[2]!.idempotency_key).not.toBe(bodies[1]!.idempotency_key);
  });
});

describe('staff ban', () => {
  it('asks for a reason before banning, then sends it trimmed', async () => {
    const ban = vi.spyOn(adminApi, 'ban').mockResolvedValue(undefined as never);
    await showUser();
    fireEvent.click(screen.getByTestId('ban-actions-ban'));
    await screen.findByText(i18n.t('admin.reasonRequired'));
    expect(ban).not.toHaveBeenCalled();
    type('ban-actions-reason', '  Spam  ');
    fireEvent.click(screen.getByTestId('ban-actions-ban'));
    await waitFor(() => expect(ban).toHaveBeenCalledWith(UUID, 'Spam'));
  });
});

describe('console home', () => {
  const days = Array.from({ length: 30 }, (_, i) => `2030-02-${String(i + 1).padStart(2, '0')}`);
  const zeros = days.map(() => 0);
  const DASHBOARD: TAdminDashboard = {
    generated_at: '2030-03-15T10:00:00.000Z',
    users: { total: 1234, new_today: 2, new_7d: 9 },
    generations_today: {
      by_status: [
        { status: 100, count: 2 },
        { status: -200, count: 2 },
      ],
      by_engine: [{ engine: 'fal', count: 4, failed: 2 }],
      by_mode: [{ mode: 'simple', count: 4 }],
      finished: 4,
      failed: 2,
      failure_rate: 0.5,
    },
    queue: { depth: 7, oldest_age_seconds: 600 },
    revenue: [
      { provider: 'yookassa', currency: 643, today: 49_000, last_30d: 148_000, refunded_30d: 0 },
      { provider: 'stars', currency: 0, today: 650, last_30d: 1_300, refunded_30d: 650 },
    ],
    margin: {
      credit_price_usd: 0.03,
      today: [
        {
          mode: 'simple',
          engine: 'fal',
          count: 4,
          cost_usd: 0.7,
          credits: 20,
          value_usd: 0.6,
          margin_usd: -0.1,
        },
        {
          mode: 'training',
          engine: 'fal',
          count: 1,
          cost_usd: 2,
          credits: 20,
          value_usd: 0.6,
          margin_usd: -1.4,
        },
      ],
      last_30d: [],
    },
    active_users: { today: 17, last_7d: 42 },
    failure_reasons_today: [{ reason: 'no_face', count: 3 }],
    likeness_refunds: [{ engine: 'fal', checked: 8, refunded: 2, share: 0.25 }],
    payouts_pending: [{ currency: 643, count: 2, amount: 400_000 }],
    series: {
      days,
      signups: zeros.map((_, i) => (i === 29 ? 2 : 0)),
      generations: zeros.map((_, i) => (i === 29 ? 4 : 1)),
      failed: zeros.map((_, i) => (i === 29 ? 2 : 0)),
      revenue: [
        { currency: 643, amounts: zeros.map((_, i) => (i === 29 ? 49_000 : 0)) },
        { currency: 0, amounts: zeros.map((_, i) => (i === 29 ? 650 : i === 3 ? 650 : 0)) },
      ],
    },
  };

  it("shows the server's numbers: tiles, tables of engines, cost and margin, failure reasons, money and a bar per day", async () => {
    vi.spyOn(adminApi, 'dashboard').mockResolvedValue(DASHBOARD);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <I18nextProvider i18n={i18n}>
          <MemoryRouter>
            <Dashboard />
          </MemoryRouter>
        </I18nextProvider>
      </QueryClientProvider>,
    );
    await screen.findByTestId('admin-dashboard');
    expect(screen.getByTestId('admin-tile-users').textContent).toContain('1,234');
    expect(screen.getByTestId('admin-tile-failures').textContent).toContain('50%');
    expect(screen.getByTestId('admin-tile-queue').textContent).toContain('10 minutes');
    expect(screen.getByTestId('admin-tile-payouts').textContent).toMatch(/4,000/);
    expect(screen.getByTestId('admin-engines').textContent).toContain('fal');
    expect(screen.getByTestId('admin-revenue').textContent).toMatch(/1,480/);
    expect(screen.getByTestId('admin-tile-active').textContent).toContain('17');
    expect(screen.getByTestId('admin-tile-active').textContent).toContain('42');
    expect(screen.getByTestId('admin-failure-reasons').textContent).toContain('no_face');
    // The code, and what the person was told in the console's language.
    expect(screen.getByTestId('admin-failure-reasons').textContent).toContain(
      'No face was found in this photo.',
    );
    // Face pictures refunded for too little likeness, per engine, with their share.
    expect(plain(screen.getByTestId('admin-likeness').textContent)).toContain('fal82 (25%)');
    expect(screen.getByTestId('admin-margin-note').textContent).toContain('$0.03');
    const margin = screen.getByTestId('admin-margin-today');
    expect(margin.textContent).toContain('$0.70');
    expect(margin.textContent).toContain('$0.60');
    // Digital-model trainings are a row of their own, named as such.
    expect(margin.textContent).toContain('Model training');
    // An empty 30-day window says so, not "today".
    expect(screen.getByText('No generations or trainings in the last 30 days')).toBeTruthy();
    expect(margin.querySelector('.admin-table__loss')?.textContent).toContain('0.10');
    const generations = screen.getByTestId('admin-chart-generations');
    expect(generations.getAttribute('data-total')).toBe('33');
    expect(generations.querySelectorAll('rect.admin-chart__bar--part')).toHaveLength(1);
    expect(screen.getByTestId('admin-chart-revenue-643').getAttribute('data-total')).toBe('49000');
    // Telegram Stars are their own currency, whole: 650 Stars, never $6.50.
    const starsRow = screen.getByText('stars').closest('tr')!;
    expect([...starsRow.querySelectorAll('td')].map((cell) => plain(cell.textContent))).toEqual([
      'stars',
      '★ 650',
      '★ 1,300',
      '★ 650',
    ]);
    const starsChart = screen.getByTestId('admin-chart-revenue-0');
    expect(plain(starsChart.textContent)).toContain('★ 1,300');
    expect(starsChart.textContent).not.toContain('$');
  });
});

describe('failed generations', () => {
  it('retries on the chosen engine with a reason, and says the retry is free after a refund', async () => {
    vi.spyOn(adminApi, 'failedGenerations').mockResolvedValue({
      results: [
        {
          uuid: UUID,
          user_uuid: UUID,
          mode: 'simple',
          status: -200,
          prompt: 'a lighthouse',
          cost: 3,
          engine: 'fal',
          provider: 'fal',
          provider_job_id: null,
          error_code: 'generations.engine_failed',
          error_detail: 'provider answered 503',
          error_reason: null,
          refunded: true,
          likeness: null,
          created_at: '2030-03-15T10:00:00.000Z',
          finished_at: null,
        },
      ],
      engines: [{ mode: 'simple', engines: ['fal', 'local'] }],
    });
    const retry = vi.spyOn(adminApi, 'retryGeneration').mockResolvedValue(undefined as never);
    const refund = vi.spyOn(adminApi, 'refundGeneration');
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <I18nextProvider i18n={i18n}>
          <MemoryRouter>
            <FailedGenerations />
          </MemoryRouter>
        </I18nextProvider>
      </QueryClientProvider>,
    );
    await screen.findByTestId('admin-failed-generation');
    screen.getByText(i18n.t('admin.generations.retryFree'));
    // Refunded already: no refund button.
    expect(screen.queryByTestId('generation-actions-refund')).toBeNull();
    fireEvent.click(screen.getByTestId('retry-engine-local'));
    type('generation-actions-reason', ' fal outage ');
    fireEvent.click(screen.getByTestId('generation-actions-retry'));
    await waitFor(() => expect(retry).toHaveBeenCalledWith(UUID, 'fal outage', 'local'));
    expect(refund).not.toHaveBeenCalled();
  });
});

describe("a person's payments", () => {
  it('refunds an order only after a reason and a second, confirming press', async () => {
    const refund = vi.spyOn(adminApi, 'refundOrder').mockResolvedValue({ outcome: 'requested' });
    await showUser();
    await screen.findByTestId('admin-order');
    type('order-actions-reason', 'Charged twice');
    fireEvent.click(screen.getByTestId('order-actions-refund'));
    await screen.findByTestId('order-actions-confirm');
    expect(refund).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('order-actions-refund'));
    await waitFor(() => expect(refund).toHaveBeenCalledWith(MONEY.orders[0]!.uuid, 'Charged twice'));
    expect(refund).toHaveBeenCalledTimes(1);
  });
});

describe('a Telegram Stars payment', () => {
  const STARS_ORDER = {
    ...MONEY.orders[0]!,
    uuid: '0b3c6e1d-2f4a-4b5c-8d6e-7f8091a2b3c4',
    provider: 'stars',
    method: 'stars',
    amount: 650,
    currency: 0,
  };

  async function showStarsOrder(outcome: 'refunded' | 'requested') {
    vi.spyOn(adminApi, 'user').mockResolvedValue(DETAIL);
    vi.spyOn(adminApi, 'userMoney').mockResolvedValue({ ...MONEY, orders: [STARS_ORDER] });
    const refund = vi.spyOn(adminApi, 'refundOrder').mockResolvedValue({ outcome });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <I18nextProvider i18n={i18n}>
          <MemoryRouter>
            <UserMoney uuid={UUID} />
          </MemoryRouter>
        </I18nextProvider>
      </QueryClientProvider>,
    );
    await screen.findByTestId('admin-order');
    return refund;
  }

  it('reads in Stars on the card and the refund button, and reads refunded in place once refunded', async () => {
    const refund = await showStarsOrder('refunded');
    const card = screen.getByTestId('admin-order');
    expect(plain(card.textContent)).toContain('★ 650');
    expect(card.textContent).not.toContain('$');
    expect(plain(screen.getByTestId('order-actions-refund').textContent)).toBe('Refund ★ 650');
    type('order-actions-reason', 'Asked in the bot');
    fireEvent.click(screen.getByTestId('order-actions-refund'));
    await screen.findByTestId('order-actions-confirm');
    fireEvent.click(screen.getByTestId('order-actions-refund'));
    await waitFor(() => expect(refund).toHaveBeenCalledWith(STARS_ORDER.uuid, 'Asked in the bot'));
    // The server still lists it as paid (mocked): the card follows the refund's answer at once.
    await waitFor(() => expect(card.getAttribute('data-status')).toBe('refunded'));
    expect(screen.getByTestId('order-status').textContent).toBe('Refunded');
    expect(screen.queryByTestId('order-actions-refund')).toBeNull();
  });

  it('a refund the provider confirms later says so instead of offering the button again', async () => {
    await showStarsOrder('requested');
    type('order-actions-reason', 'Asked in the bot');
    fireEvent.click(screen.getByTestId('order-actions-refund'));
    await screen.findByTestId('order-actions-confirm');
    fireEvent.click(screen.getByTestId('order-actions-refund'));
    expect((await screen.findByTestId('order-refund-pending')).textContent).toBe(
      'Refund requested: the payment reads Refunded once the provider confirms it.',
    );
    expect(screen.getByTestId('admin-order').getAttribute('data-status')).toBe('paid');
    expect(screen.queryByTestId('order-actions-refund')).toBeNull();
  });
});

describe('payment search', () => {
  it('asks for the typed term, shows each order with its buyer and refunded part, and refunds it', async () => {
    const order = { ...MONEY.orders[0]!, amount_refunded: 9_000 };
    const search = vi.spyOn(adminApi, 'searchPayments').mockResolvedValue({
      results: [{ order, buyer: { uuid: UUID, email: 'ann@example.com', telegram_id: null } }],
      next: null,
    });
    const refund = vi.spyOn(adminApi, 'refundOrder').mockResolvedValue({ outcome: 'requested' });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <I18nextProvider i18n={i18n}>
          <MemoryRouter initialEntries={['/admin/payments/']}>
            <PaymentSearch />
          </MemoryRouter>
        </I18nextProvider>
      </QueryClientProvider>,
    );
    await screen.findByTestId('admin-order');
    expect(search).toHaveBeenLastCalledWith('', undefined);
    type('admin-payment-search', 'yk-1');
    fireEvent.click(screen.getByTestId('admin-payment-search-submit'));
    await waitFor(() => expect(search).toHaveBeenLastCalledWith('yk-1', undefined));
    expect((await screen.findByTestId('payment-buyer')).textContent).toBe('ann@example.com');
    expect(screen.getByTestId('order-refunded').textContent).toMatch(/90/);
    type('order-actions-reason', 'Charged twice');
    fireEvent.click(screen.getByTestId('order-actions-refund'));
    await screen.findByTestId('order-actions-confirm');
    fireEvent.click(screen.getByTestId('order-actions-refund'));
    await waitFor(() => expect(refund).toHaveBeenCalledWith(order.uuid, 'Charged twice'));
  });
});

describe('pay-out queue', () => {
  it('marks a pay-out paid with its reference only after confirming; refusing needs a reason', async () => {
    vi.spyOn(adminApi, 'payouts').mockResolvedValue({
      results: [
        {
          uuid: UUID,
          user_uuid: UUID,
          user_email: 'rosa@example.com',
          amount: 300_000,
          currency: 643,
          method: 'card',
          requisites: { card: '4111111111111111', holder: 'ROSA' },
          status: 'pending',
          reason: null,
          reference: null,
          created_at: '2030-03-15T10:00:00.000Z',
        },
      ],
    });
    const approve = vi.spyOn(adminApi, 'approvePayout').mockResolvedValue(undefined as never);
    const reject = vi.spyOn(adminApi, 'rejectPayout');
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <I18nextProvider i18n={i18n}>
          <MemoryRouter>
            <PayoutQueue />
          </MemoryRouter>
        </I18nextProvider>
      </QueryClientProvider>,
    );
    await screen.findByTestId('admin-payout');
    screen.getByText('4111111111111111');
    fireEvent.click(screen.getByTestId('payout-actions-reject'));
    await screen.findByText(i18n.t('admin.reasonRequired'));
    expect(reject).not.toHaveBeenCalled();
    type('payout-reference', 'SBER-42');
    type('payout-actions-reason', 'Sent by card');
    fireEvent.click(screen.getByTestId('payout-actions-approve'));
    await screen.findByTestId('payout-actions-confirm');
    expect(approve).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('payout-actions-approve'));
    await waitFor(() => expect(approve).toHaveBeenCalledWith(UUID, 'Sent by card', 'SBER-42'));
  });

  it("refuses only after confirming, and does not offer marking one's own pay-out paid", async () => {
    const OWN = '22222222-2222-4222-8222-222222222222';
    useSession.setState({ user: { uuid: OWN } as never });
    const base = {
      user_email: 'rosa@example.com',
      amount: 300_000,
      currency: 643,
      method: 'card' as const,
      requisites: { card: '4111111111111111', holder: 'ROSA' },
      status: 'pending' as const,
      reason: null,
      reference: null,
      created_at: '2030-03-15T10:00:00.000Z',
    };
    vi.spyOn(adminApi, 'payouts').mockResolvedValue({
      results: [
        { ...base, uuid: UUID, user_uuid: UUID },
        { ...base, uuid: OWN, user_uuid: OWN },
      ],
    });
    const reject = vi.spyOn(adminApi, 'rejectPayout').mockResolvedValue(undefined as never);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <I18nextProvider i18n={i18n}>
          <MemoryRouter>
            <PayoutQueue />
          </MemoryRouter>
        </I18nextProvider>
      </QueryClientProvider>,
    );
    const cards = await screen.findAllByTestId('admin-payout');
    const own = cards.find((card) => card.dataset.payout === OWN)!;
    const other = cards.find((card) => card.dataset.payout === UUID)!;
    expect(own.querySelector('[data-testid="payout-actions-approve"]')).toBeNull();
    expect(own.textContent).toContain(i18n.t('admin.payouts.ownNote'));
    expect(other.querySelector('[data-testid="payout-actions-approve"]')).not.toBeNull();
    expect(other.querySelector('[data-testid="payout-own"]')).toBeNull();
    const reason = other.querySelector<HTMLInputElement>('[data-testid="payout-actions-reason"]')!;
    fireEvent.input(reason, { target: { value: 'Wrong card' } });
    fireEvent.click(other.querySelector('[data-testid="payout-actions-reject"]')!);
    await waitFor(() => expect(other.querySelector('[data-testid="payout-actions-confirm"]')).not.toBeNull());
    expect(reject).not.toHaveBeenCalled();
    fireEvent.click(other.querySelector('[data-testid="payout-actions-reject"]')!);
    await waitFor(() => expect(reject).toHaveBeenCalledWith(UUID, 'Wrong card'));
    useSession.setState({ user: null });
  });

  it("says the server's refusal of one's own pay-out in the person's language", async () => {
    vi.spyOn(adminApi, 'payouts').mockResolvedValue({
      results: [
        {
          uuid: UUID,
          user_uuid: UUID,
          user_email: 'rosa@example.com',
          amount: 300_000,
          currency: 643,
          method: 'card',
          requisites: { card: '4111111111111111', holder: 'ROSA' },
          status: 'pending',
          reason: null,
          reference: null,
          created_at: '2030-03-15T10:00:00.000Z',
        },
      ],
    });
    vi.spyOn(adminApi, 'approvePayout').mockRejectedValue(
      new ApiError(403, {
        code: 'partners.payout_own',
        detail: 'Your own pay-out is approved by another staff member.',
      } as never),
    );
    const ru = await createTestI18n('ru');
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <I18nextProvider i18n={ru}>
          <MemoryRouter>
            <PayoutQueue />
          </MemoryRouter>
        </I18nextProvider>
      </QueryClientProvider>,
    );
    await screen.findByTestId('admin-payout');
    type('payout-actions-reason', 'Sent');
    fireEvent.click(screen.getByTestId('payout-actions-approve'));
    fireEvent.click(await screen.findByTestId('payout-actions-approve'));
    await screen.findByText(ru.t('errors.partners.payout_own'));
    expect(ru.t('errors.partners.payout_own')).not.toMatch(/staff member/);
  });
});

describe('audit log', () => {
  it('checks the staff uuid in place, then asks with only the filters given', async () => {
    const audit = vi.spyOn(adminApi, 'audit').mockResolvedValue({ results: [], next: null });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <I18nextProvider i18n={i18n}>
          <MemoryRouter>
            <AuditLog />
          </MemoryRouter>
        </I18nextProvider>
      </QueryClientProvider>,
    );
    await screen.findByText(i18n.t('admin.audit.empty'));
    expect(audit).toHaveBeenCalledTimes(1);
    type('audit-staff', 'bob');
    fireEvent.click(screen.getByTestId('audit-apply'));
    await screen.findByText(i18n.t('admin.audit.staffInvalid'));
    expect(audit).toHaveBeenCalledTimes(1);
    type('audit-staff', UUID);
    type('audit-action', 'payout.');
    fireEvent.click(screen.getByTestId('audit-apply'));
    await waitFor(() => expect(audit).toHaveBeenCalledTimes(2));
    expect(audit.mock.calls[1]![0]).toMatchObject({ staff: UUID, action: 'payout.', target: '' });
  });
});

describe("a person's requests", () => {
  it('exports after a reason and a confirmation, and deletes only once the e-mail is typed', async () => {
    const exportUser = vi.spyOn(adminApi, 'exportUser').mockResolvedValue(undefined);
    const deleteUser = vi
      .spyOn(adminApi, 'deleteUser')
      .mockRejectedValueOnce(
        new ApiError(403, { code: 'auth.permission_denied', detail: 'You do not have permission.' }),
      )
      .mockResolvedValueOnce({ ok: true } as never);
    await showUser();

    fireEvent.click(screen.getByTestId('export-actions-export'));
    await screen.findByText(i18n.t('admin.reasonRequired'));
    type('export-actions-reason', 'Asked by e-mail');
    fireEvent.click(screen.getByTestId('export-actions-export'));
    await screen.findByTestId('export-actions-confirm');
    expect(exportUser).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('export-actions-export'));
    await waitFor(() => expect(exportUser).toHaveBeenCalledWith(UUID, 'Asked by e-mail'));

    type('delete-account-reason', 'Asked by e-mail');
    fireEvent.click(screen.getByTestId('delete-account-posts-delete'));
    const submit = screen.getByTestId('delete-account-submit') as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    type('delete-account-phrase', 'ann@example.co');
    expect(submit.disabled).toBe(true);
    type('delete-account-phrase', 'ann@example.com');
    expect(submit.disabled).toBe(false);
    fireEvent.click(submit);
    await waitFor(() => expect(deleteUser).toHaveBeenCalledWith(UUID, 'Asked by e-mail', 'delete'));
    await screen.findByText(i18n.t('errors.auth.permission_denied'));
    fireEvent.click(submit);
    await screen.findByTestId('admin-user-deleted');
    screen.getByText(i18n.t('admin.users.deleted'));
  });

  it("downloads the ZIP the server answers, and says the server's refusal", async () => {
    const fetchMock = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(
        new Response('PK', { status: 200, headers: { 'Content-Type': 'application/zip' } }),
      )
      .mockResolvedValueOnce(
        new Response(JSON.stringify({ code: 'users.not_found', detail: 'Not found.' }), {
          status: 404,
          headers: { 'Content-Type': 'application/json' },
        }),
      );
    const created: Blob[] = [];
    URL.createObjectURL = (blob: Blob) => (created.push(blob), 'blob:zip');
    URL.revokeObjectURL = () => {};
    const clicks: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this.download);
    });
    await adminApi.exportUser(UUID, 'Asked by e-mail');
    const [path, init] = fetchMock.mock.calls[0]!;
    expect(path).toBe(`/api/admin/users/${UUID}/export/`);
    expect(JSON.parse(String(init!.body))).toEqual({ reason: 'Asked by e-mail' });
    expect(created).toHaveLength(1);
    expect(clicks[0]).toMatch(/\.zip$/);
    await expect(adminApi.exportUser(UUID, 'x')).rejects.toMatchObject({ code: 'users.not_found' });
  });
});
