import { routes, type TUser } from '@mirra/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as apiClient from '../../lib/api-client';
import { api } from '../../lib/api-client';
import { ApiError } from '../../lib/api-error';
import { useSession } from '../../lib/session';
import { createTestI18n } from '../../test/i18n';
import { WalletMoneyOut } from './components/money-out';
import { PartnerProgramme } from './components/partner-programme';
import { PromoMaterials } from './components/promo-materials';
import { TeamList } from './components/team-list';
import { TopsList } from './components/tops-list';
import { creditsFor, creditsPrice, parseMoney, recipientUuid } from './transfer.models';

type ApiClientModule = typeof apiClient;
vi.mock('../../lib/api-client', async (original) => ({
  ...(await original<ApiClientModule>()),
  api: vi.fn(),
}));

const ME = '11111111-1111-4111-8111-111111111111';
const FRIEND = '22222222-2222-4222-8222-222222222222';

type Call = { route: { method: string; path: string }; options?: { body?: Record<string, unknown> } };
let calls: Call[];
let answers: Map<string, (options: Call['options']) => unknown>;
const answer = (route: { method: string; path: string }, reply: (options: Call['options']) => unknown) =>
  answers.set(`${route.method} ${route.path}`, reply);
const callsTo = (route: { method: string; path: string }) =>
  calls.filter((c) => c.route.method === route.method && c.route.path === route.path);

let i18n: I18n;
beforeAll(async () => {
  i18n = await createTestI18n('en');
});
beforeEach(() => {
  calls = [];
  answers = new Map();
  vi.mocked(api).mockImplementation((async (route: Call['route'], options?: Call['options']) => {
    calls.push({ route, options });
    const reply = answers.get(`${route.method} ${route.path}`);
    if (!reply) throw new Error(`no answer for ${route.method} ${route.path}`);
    return reply(options);
  }) as never);
  useSession.setState({ user: { uuid: ME } as TUser, isLoggedIn: true, status: 'ready' });
  answer(routes.wallet.balances, () => ({
    balances: [
      { currency: 643, available: 150_000, frozen: 20_000, pending: 0, reserved: 0, payable: 0 },
      { currency: 840, available: 1_000, frozen: 0, pending: 0, reserved: 0, payable: 0 },
    ],
  }));
  answer(routes.payouts.creditRates, () => ({ rates: { '643': 10, '840': 1000 } }));
  answer(routes.credits.balance, () => ({ balance: 40 }));
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function Where() {
  const location = useLocation();
  return <span data-testid="where">{location.pathname + location.search}</span>;
}

async function show(node: ReactNode, language = 'en', at = '/wallet/pay-out/') {
  await i18n.changeLanguage(language);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={[at]}>
          <Routes>
            <Route
              path="*"
              element={
                <>
                  {node}
                  <Where />
                </>
              }
            />
          </Routes>
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

/** Text with the number format's narrow and no-break spaces as plain ones. */
const plain = (text: string | null) => (text ?? '').replace(/[\s\u00a0\u202f]/g, ' ');
const textboxOf = (testId: string) =>
  (screen.getByTestId(testId).querySelector('input') ?? screen.getByTestId(testId)) as HTMLInputElement;

describe('transfer to my credits', () => {
  it('checks the amount in the person’s language, confirms what happens, keeps the key on a failed send and takes a new one after success', async () => {
    let failOnce = true;
    answer(routes.payouts.toCredits, (options) => {
      if (failOnce) {
        failOnce = false;
        throw new TypeError('Failed to fetch');
      }
      return { credits: options!.body!.credits, cost: 5_000, currency: 643, balance: 540 };
    });
    await show(<WalletMoneyOut />, 'ru', '/wallet/pay-out/?to=credits');
    expect(plain((await screen.findByTestId('transfer-rate')).textContent)).toBe('1 ₽ = 10 кредитов');
    expect(plain(screen.getByTestId('transfer-available').textContent)).toBe('Доступно: 1 500 ₽');

    const input = () => textboxOf('transfer-amount');
    // 20 000 credits cost 2 000 ₽: more than the 1 500 ₽ available.
    fireEvent.input(input(), { target: { value: '20000' } });
    expect(plain(screen.getByTestId('transfer-credits').textContent)).toContain('Стоимость 2 000 ₽');
    fireEvent.click(screen.getByTestId('transfer-next'));
    expect(await screen.findByText(/Недостаточно денег: доступно 1\s?500 ₽\./)).toBeTruthy();
    expect(callsTo(routes.payouts.toCredits)).toHaveLength(0);

    fireEvent.input(input(), { target: { value: '500' } });
    fireEvent.click(screen.getByTestId('transfer-next'));
    const confirm = await screen.findByTestId('transfer-confirm');
    const row = (id: string) => plain(within(confirm).getByTestId(`transfer-confirm-${id}`).textContent);
    expect(row('send')).toBe('Спишется с кошелька50 ₽');
    expect(row('get')).toBe('Вы получите кредитов500');
    expect(row('fee')).toBe('Комиссиянет');
    expect(row('after')).toMatch(/Останется в кошельке1\s?450 ₽/);
    expect(row('credits-after')).toBe('Кредитов станет540');

    fireEvent.click(screen.getByTestId('transfer-send'));
    expect(await within(confirm).findByText(i18n.t('errors.network', { lng: 'ru' }))).toBeTruthy();
    fireEvent.click(screen.getByTestId('transfer-send'));
    const done = await screen.findByTestId('transfer-done');
    expect(plain(done.textContent)).toContain('На баланс зачислено 500 кредитов за 50 ₽.');
    fireEvent.click(screen.getByTestId('transfer-again'));
    fireEvent.input(input(), { target: { value: '10' } });
    fireEvent.click(screen.getByTestId('transfer-next'));
    fireEvent.click(await screen.findByTestId('transfer-send'));
    await screen.findByTestId('transfer-done');

    const keys = callsTo(routes.payouts.toCredits).map((c) => c.options!.body!.client_key);
    expect(keys).toHaveLength(3);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[1]);
    expect(callsTo(routes.payouts.toCredits)[0]!.options!.body).toMatchObject({
      currency: 643,
      credits: 500,
    });
    // The wallet's balance was asked again after each transfer went through.
    expect(callsTo(routes.wallet.balances).length).toBeGreaterThanOrEqual(3);
  });

  it('pays with the currency chosen on the switch, and the choice is remembered', async () => {
    answer(routes.payouts.toCredits, () => ({ credits: 100, cost: 10, currency: 840, balance: 140 }));
    await show(<WalletMoneyOut />, 'en', '/wallet/pay-out/?to=credits');
    fireEvent.click(await screen.findByTestId('money-currency-840'));
    await waitFor(() => expect(screen.getByTestId('transfer-rate').textContent).toBe('$1 = 1,000 credits'));
    expect(screen.getByTestId('transfer-available').textContent).toBe('Available: $10');
    fireEvent.input(textboxOf('transfer-amount'), { target: { value: '100' } });
    fireEvent.click(screen.getByTestId('transfer-next'));
    expect((await screen.findByTestId('transfer-confirm-send')).textContent).toBe('Leaves your wallet$0.10');
    fireEvent.click(screen.getByTestId('transfer-send'));
    await screen.findByTestId('transfer-done');
    expect(callsTo(routes.payouts.toCredits)[0]!.options!.body).toMatchObject({
      currency: 840,
      credits: 100,
    });
    expect(localStorage.getItem('wallet_currency')).toBe('840');
  });
});

describe('transfer to another user', () => {
  it('finds the recipient from a profile link, shows their name before sending, and refuses my own profile', async () => {
    answer(routes.users.byId, () => ({
      id: 2,
      uuid: FRIEND,
      firstName: 'Anna',
      lastName: 'Berg',
      username: 'anna',
      date_joined: '2026-01-01T00:00:00.000Z',
    }));
    answer(routes.payouts.toUser, (options) => ({
      amount: options!.body!.amount,
      currency: 643,
      to: { uuid: FRIEND, name: 'Anna Berg' },
    }));
    await show(<WalletMoneyOut />, 'de', '/wallet/pay-out/?to=user');
    await screen.findByTestId('transfer-user');
    const recipient = () => textboxOf('transfer-recipient');
    const amount = () => textboxOf('transfer-amount');

    fireEvent.input(recipient(), { target: { value: `https://mirra.test/profile/${ME}/` } });
    fireEvent.input(amount(), { target: { value: 'zehn' } });
    fireEvent.click(screen.getByTestId('transfer-next'));
    expect(await screen.findByText('Das ist dein eigenes Profil: wähle einen anderen Nutzer.')).toBeTruthy();
    expect(screen.getByText('Gib einen Betrag über null ein, z. B. 150 oder 99,90.')).toBeTruthy();

    fireEvent.input(recipient(), {
      target: { value: `https://mirra.test/profile/${FRIEND.toUpperCase()}/` },
    });
    fireEvent.input(amount(), { target: { value: '99,90' } });
    fireEvent.click(screen.getByTestId('transfer-next'));
    const confirm = await screen.findByTestId('transfer-confirm');
    expect(within(confirm).getByTestId('transfer-confirm-to').textContent).toBe('EmpfängerAnna Berg (@anna)');
    expect(within(confirm).getByTestId('transfer-confirm-send').textContent).toMatch(/99,90\s₽/);
    expect(within(confirm).getByTestId('transfer-confirm-after').textContent).toMatch(/1\.400,10\s₽/);
    expect(within(confirm).getByText(/nicht rückgängig/)).toBeTruthy();
    expect(callsTo(routes.payouts.toUser)).toHaveLength(0);

    fireEvent.click(screen.getByTestId('transfer-send'));
    expect((await screen.findByTestId('transfer-done')).textContent).toMatch(
      /99,90\s₽ an Anna Berg gesendet\./,
    );
    expect(callsTo(routes.payouts.toUser)[0]!.options!.body).toMatchObject({
      currency: 643,
      amount: 9_990,
      to: FRIEND,
    });
    expect(callsTo(routes.users.byId)[0]!.options).toMatchObject({ query: { id: FRIEND } });
  });

  it('says in the person’s language when the server refuses the transfer, and sends the same key again', async () => {
    answer(routes.users.byId, () => ({
      id: 2,
      uuid: FRIEND,
      firstName: '',
      lastName: '',
      username: 'anna',
      date_joined: '2026-01-01T00:00:00.000Z',
    }));
    answer(routes.payouts.toUser, () => {
      throw new ApiError(400, { code: 'wallet.insufficient', detail: 'Not enough money.' });
    });
    await show(<WalletMoneyOut />, 'ru', '/wallet/pay-out/?to=user');
    await screen.findByTestId('transfer-user');
    fireEvent.input(textboxOf('transfer-recipient'), { target: { value: FRIEND } });
    fireEvent.input(textboxOf('transfer-amount'), { target: { value: '10' } });
    fireEvent.click(screen.getByTestId('transfer-next'));
    fireEvent.click(await screen.findByTestId('transfer-send'));
    expect(await screen.findByText(i18n.t('errors.wallet.insufficient', { lng: 'ru' }))).toBeTruthy();
    fireEvent.click(screen.getByTestId('transfer-send'));
    await waitFor(() => expect(callsTo(routes.payouts.toUser)).toHaveLength(2));
    const [first, second] = callsTo(routes.payouts.toUser).map((c) => c.options!.body!.client_key);
    expect(second).toBe(first);
  });

  it('switches between pay-out and the transfers with the address remembering the choice', async () => {
    answer(routes.payouts.list, () => ({
      results: [],
      balances: [{ currency: 643, available: 150_000, frozen: 0, pending: 0, reserved: 0, payable: 0 }],
      saved: null,
      minimum: { '643': 100_000 },
    }));
    await show(<WalletMoneyOut />);
    await screen.findByTestId('payout');
    fireEvent.click(screen.getByTestId('money-out-user'));
    await screen.findByTestId('transfer-user');
    expect(screen.getByTestId('where').textContent).toBe('/wallet/pay-out/?to=user');
    fireEvent.click(screen.getByTestId('money-out-payout'));
    await screen.findByTestId('payout');
    expect(screen.getByTestId('where').textContent).toBe('/wallet/pay-out/');
  });
});

describe('money in the chosen currency', () => {
  it('asks the team and the tops for the currency picked on either, and shows their own sums in it', async () => {
    answer(routes.partners.me, () => ({
      reflink: 'https://mirra.test/?ref=abc',
      reflink_telegram: null,
      referral_code: 'abc',
      curator: null,
      levels: [],
      hold_days: 14,
      show_contact: false,
      paying_first_line: 0,
    }));
    answer(routes.partners.team, (options) => {
      const currency = (options as { query: { currency: number } }).query.currency;
      return {
        results: [
          {
            uuid: FRIEND,
            level: 1,
            name: 'Anna',
            username: 'anna',
            avatar_url: null,
            date_joined: '2026-01-01T00:00:00.000Z',
            paid: true,
            turnover: currency === 840 ? 1_250 : 99_000,
          },
        ],
        next: null,
        currency,
      };
    });
    answer(routes.partners.tops, (options) => {
      const currency = (options as { query: { currency: number } }).query.currency;
      return {
        results: [
          {
            rank: 1,
            uuid: FRIEND,
            name: 'Anna',
            username: 'anna',
            avatar_url: null,
            value: currency === 840 ? 500 : 30_000,
            is_me: false,
          },
        ],
        currency,
        period: 'month',
        by: 'income',
        computed_at: null,
      };
    });
    await show(
      <>
        <TeamList />
        <TopsList />
      </>,
    );
    expect((await screen.findByTestId('team-member')).textContent).toContain('Turnover ₽990');
    expect((await screen.findByTestId('top-entry')).textContent).toContain('₽300');
    // One switch moves both lists: no conversion, each currency's own sums.
    fireEvent.click(within(screen.getByTestId('team-list')).getByTestId('money-currency-840'));
    await waitFor(() => expect(screen.getByTestId('team-member').textContent).toContain('Turnover $12.50'));
    await waitFor(() => expect(screen.getByTestId('top-entry').textContent).toContain('$5'));
    expect(
      callsTo(routes.partners.tops).map((c) => (c.options as { query: { currency: number } }).query.currency),
    ).toEqual([643, 840]);
  });
});

describe('the partner screen in the remembered currency', () => {
  // The whole partner screen (banners, QR codes, chart) renders: slow on a busy machine.
  it(
    'asks for the statistics in dollars and shows the calculator’s income in dollars when dollars were chosen last',
    { timeout: 20_000 },
    async () => {
      localStorage.setItem('wallet_currency', '840');
      vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
      answer(routes.partners.me, () => ({
        reflink: 'https://mirra.test/?ref=abc',
        reflink_telegram: null,
        referral_code: 'abc',
        curator: null,
        levels: [
          {
            level: 1,
            percent: 10,
            min_paying_first_line: 0,
            unlocked: true,
            missing: 0,
            team: 0,
            team_paid: 0,
          },
        ],
        hold_days: 14,
        show_contact: false,
        paying_first_line: 0,
        calculator_average: { '643': 99_000, '840': 1_299 },
      }));
      answer(routes.partners.statistics, (options) => ({
        currency: (options as { query: { currency: number } }).query.currency,
        payedPartners: 0,
        payouts: 0,
        referals: 0,
        turnoverMonth: 0,
        turnoverAll: 0,
        firstLineTurnover: 0,
        income: 1_250,
        months: [],
        currencies: [643, 840],
      }));
      answer(routes.payouts.list, () => ({
        results: [],
        balances: [{ currency: 643, available: 0, frozen: 0, pending: 0, reserved: 0, payable: 0 }],
        saved: null,
        minimum: { '643': 100_000 },
      }));
      answer(routes.partners.calculator, () => ({
        levels: [{ level: 1, income: 9_900, unlocked: true }],
        total: 9_900,
        hold_days: 14,
      }));
      await show(<PartnerProgramme />);
      expect((await screen.findByTestId('stat-income')).textContent).toContain('$12.50');
      expect(callsTo(routes.partners.statistics)[0]!.options).toMatchObject({ query: { currency: 840 } });
      const calculator = screen.getByTestId('partner-calculator');
      expect(within(calculator).getByText('Average purchase per partner a month, $')).toBeTruthy();
      fireEvent.click(within(calculator).getByRole('button', { name: 'Calculate' }));
      expect((await screen.findByTestId('calculator-result')).textContent).toContain('$99');
      // Roubles again: the same screen follows at once.
      fireEvent.click(within(calculator).getByTestId('money-currency-643'));
      await waitFor(() => expect(screen.getByTestId('calculator-result').textContent).toContain('₽99'));
      await waitFor(() => expect(screen.getByTestId('stat-income').textContent).toContain('₽12.50'));
    },
  );
});

describe('promo texts in another language', () => {
  it('gives the ready-made texts in the language picked, with my link, while the interface stays in its own', async () => {
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
    await show(<PromoMaterials reflink="https://mirra.test/?ref=abc" />, 'ru');
    // The app's own picker (a row of chips, one choice), not the browser's unstyled select.
    const picker = await screen.findByRole('radiogroup', {
      name: i18n.t('partners.promo.language', { lng: 'ru' }),
    });
    expect(picker.querySelector('select')).toBeNull();
    expect(within(picker).getAllByRole('radio')).toHaveLength(6);
    expect(within(picker).getByRole('radio', { checked: true }).textContent).toBe('Русский');
    expect(screen.getByTestId('promo-text1').textContent).toContain('https://mirra.test/?ref=abc');
    expect(screen.getByTestId('promo-text1').textContent).toContain(
      i18n.t('partners.promo.text1', { lng: 'ru', link: 'https://mirra.test/?ref=abc' }),
    );
    fireEvent.click(within(picker).getByRole('radio', { name: 'Deutsch' }));
    expect(within(picker).getByRole('radio', { checked: true }).textContent).toBe('Deutsch');
    const german = i18n.t('partners.promo.text1', { lng: 'de', link: 'https://mirra.test/?ref=abc' });
    await waitFor(() => expect(screen.getByTestId('promo-text1').textContent).toContain(german));
    expect(german).not.toBe(i18n.t('partners.promo.text1', { lng: 'ru', link: 'x' }));
    expect(screen.getByTestId('promo-text1').querySelector('p')!.getAttribute('lang')).toBe('de');
    // The interface is still Russian.
    expect(screen.getByText(i18n.t('partners.promo.language', { lng: 'ru' }))).toBeTruthy();
    expect(i18n.language).toBe('ru');
  });
});

describe('transfer rules', () => {
  it('finds the uuid in a pasted profile link or alone, and nothing in other text', () => {
    expect(recipientUuid(` https://app.mirra.ai/profile/${FRIEND.toUpperCase()}/ `)).toBe(FRIEND);
    expect(recipientUuid(FRIEND)).toBe(FRIEND);
    expect(recipientUuid('@anna')).toBeNull();
  });

  it('reads amounts as people type them and prices credits as the server does', () => {
    expect(parseMoney('1 500')).toBe(150_000);
    expect(parseMoney('99,9')).toBe(9_990);
    expect(parseMoney('1.234')).toBeNull();
    expect(parseMoney('-5')).toBeNull();
    expect(creditsPrice(1, 3)).toBe(34);
    expect(creditsFor(100, 3)).toBe(3);
    expect(creditsFor(99, 3)).toBe(2);
    expect(creditsPrice(creditsFor(100, 3), 3)).toBeLessThanOrEqual(100);
    expect(creditsFor(99, 0)).toBe(0);
  });
});
