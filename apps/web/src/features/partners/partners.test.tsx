import {
  PAYOUT_AMOUNT_INVALID,
  payoutMinimumMessage,
  type TPartnerStatistics,
  type TPartnerSummary,
  type TPayouts,
  type TTeamPage,
} from '@mirra/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-error';
import { markInTelegram } from '../../lib/telegram/detect';
import { createTestI18n } from '../../test/i18n';
import { partnersApi } from './api/partners.api';
import { PartnerProgramme } from './components/partner-programme';
import { PayoutForm } from './components/payout-form';
import { PromoMaterials } from './components/promo-materials';
import { TeamList } from './components/team-list';

let i18n: I18n;
beforeAll(async () => {
  i18n = await createTestI18n('en');
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

async function show(node: ReactNode, language = 'en') {
  await i18n.changeLanguage(language);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter>{node}</MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

const level = (n: number, unlocked: boolean) => ({
  level: n,
  percent: [20, 10, 5][n - 1]!,
  min_paying_first_line: n * 3,
  unlocked,
  missing: unlocked ? 0 : 2,
  team: n * 2,
  team_paid: n,
});
const SUMMARY: TPartnerSummary = {
  reflink: 'https://mirra.test/?ref=abc',
  reflink_telegram: null,
  referral_code: 'abc',
  curator: null,
  levels: [level(1, true), level(2, true), level(3, false)],
  hold_days: 14,
  show_contact: false,
  paying_first_line: 4,
  calculator_average: { '643': 99_000, '840': 1_299 },
};
const STATISTICS: TPartnerStatistics = {
  currency: 643,
  payedPartners: 1,
  payouts: 0,
  referals: 2,
  turnoverMonth: 0,
  turnoverAll: 0,
  firstLineTurnover: 0,
  income: 0,
  months: [],
  currencies: [643],
};
const NO_PAYOUTS: TPayouts = {
  results: [],
  balances: [{ currency: 643, available: 500_000, frozen: 0, pending: 0, reserved: 0, payable: 500_000 }],
  saved: null,
  minimum: { '643': 100_000 },
};

function programmeApi() {
  vi.spyOn(partnersApi, 'summary').mockResolvedValue(SUMMARY);
  vi.spyOn(partnersApi, 'statistics').mockResolvedValue(STATISTICS);
  vi.spyOn(partnersApi, 'payouts').mockResolvedValue(NO_PAYOUTS);
}

describe('income calculator', () => {
  it('asks with whole partner counts per level and the average bill in kopecks, and shows locked levels', async () => {
    programmeApi();
    const calculator = vi.spyOn(partnersApi, 'calculator').mockResolvedValue({
      levels: [
        { level: 1, income: 99_000, unlocked: true },
        { level: 2, income: 198_000, unlocked: true },
        { level: 3, income: 0, unlocked: false },
      ],
      total: 297_000,
      hold_days: 14,
    });
    await show(<PartnerProgramme />);
    const form = await screen.findByTestId('partner-calculator');
    const inputs = within(form).getAllByRole('textbox');
    expect(inputs.map((input) => (input as HTMLInputElement).value)).toEqual(['5', '20', '100', '990']);
    // The average keeps its kopecks.
    fireEvent.input(inputs[1]!, { target: { value: '7' } });
    fireEvent.input(inputs[3]!, { target: { value: '12.5' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Calculate' }));
    const result = await screen.findByTestId('calculator-result');
    expect(calculator).toHaveBeenCalledWith('5,7,100', 1250);
    expect(result.textContent).toMatch(/2,970/);
    expect(result.textContent).toContain('Level 3: locked');
  });
});

describe('income calculator input', () => {
  afterEach(() => localStorage.removeItem('wallet_currency'));
  const RESULT = {
    levels: [
      { level: 1, income: 99_000, unlocked: true },
      { level: 2, income: 198_000, unlocked: true },
      { level: 3, income: 0, unlocked: false },
    ],
    total: 297_000,
    hold_days: 14,
  };
  const inputs = (form: HTMLElement) => within(form).getAllByRole('textbox') as HTMLInputElement[];

  it('refuses what is not a whole number of people or an amount, in the person’s language, and never rewrites it', async () => {
    programmeApi();
    const calculator = vi.spyOn(partnersApi, 'calculator').mockResolvedValue(RESULT);
    await show(<PartnerProgramme />, 'ru');
    const form = await screen.findByTestId('partner-calculator');
    fireEvent.click(within(form).getByRole('button', { name: 'Рассчитать' }));
    const result = await screen.findByTestId('calculator-result');
    expect(result.dataset.stale).toBeUndefined();
    fireEvent.input(inputs(form)[0]!, { target: { value: '1.5' } });
    fireEvent.input(inputs(form)[1]!, { target: { value: '-5' } });
    fireEvent.input(inputs(form)[3]!, { target: { value: '600.555' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Рассчитать' }));
    await waitFor(() =>
      expect(within(form).getAllByText(/Введите целое число людей от 0 до/)).toHaveLength(2),
    );
    expect(within(form).getByText(/Введите сумму от 0 до .*₽, не больше двух знаков/)).toBeTruthy();
    expect(inputs(form).map((input) => input.value)).toEqual(['1.5', '-5', '100', '600.555']);
    expect(calculator).toHaveBeenCalledTimes(1);
    // The last good result stays, marked as for the previous figures.
    expect(result.dataset.stale).toBe('true');
    expect(result.textContent).toContain('Для прежних данных');
  });

  it('says in the person’s language when the server refuses the figures, keeping the last result as not current', async () => {
    programmeApi();
    const calculator = vi
      .spyOn(partnersApi, 'calculator')
      .mockResolvedValueOnce(RESULT)
      .mockRejectedValueOnce(
        new ApiError(400, {
          code: 'common.validation',
          average: ['Too big: expected number to be <=100000000'],
        }),
      );
    await show(<PartnerProgramme />, 'de');
    const form = await screen.findByTestId('partner-calculator');
    const calculate = within(form).getByRole('button', { name: 'Berechnen' });
    fireEvent.click(calculate);
    const result = await screen.findByTestId('calculator-result');
    fireEvent.click(calculate);
    await within(form).findByText(/Für diese Angaben ließ sich das Einkommen nicht berechnen/);
    expect(calculator).toHaveBeenCalledTimes(2);
    expect(form.textContent).not.toContain('Too big');
    expect(result.dataset.stale).toBe('true');
  });

  it('starts the average at the plan’s price in the chosen currency, with that currency’s sign', async () => {
    programmeApi();
    const calculator = vi.spyOn(partnersApi, 'calculator').mockResolvedValue(RESULT);
    await show(<PartnerProgramme />);
    const form = await screen.findByTestId('partner-calculator');
    expect(inputs(form)[3]!.value).toBe(String(SUMMARY.calculator_average['643']! / 100));
    expect(within(form).getByText('Average purchase per partner a month, ₽')).toBeTruthy();
    fireEvent.click(within(form).getByTestId('money-currency-840'));
    await waitFor(() =>
      expect(inputs(form)[3]!.value).toBe(String(SUMMARY.calculator_average['840']! / 100)),
    );
    expect(within(form).getByText('Average purchase per partner a month, $')).toBeTruthy();
    fireEvent.click(within(form).getByRole('button', { name: 'Calculate' }));
    await waitFor(() =>
      expect(calculator).toHaveBeenCalledWith('5,20,100', SUMMARY.calculator_average['840']),
    );
    expect((await screen.findByTestId('calculator-result')).textContent).toContain('$2,970');
  });
});

describe('curator contact toggle', () => {
  it('says why saving failed, not that copying did', async () => {
    programmeApi();
    vi.spyOn(partnersApi, 'saveSettings').mockRejectedValue(new TypeError('Failed to fetch'));
    const { useAppStore } = await import('../../lib/app-store');
    const showTopinfo = vi.spyOn(useAppStore.getState(), 'showTopinfo');
    await show(<PartnerProgramme />);
    const curator = await screen.findByTestId('partner-curator');
    fireEvent.click(within(curator).getByRole('checkbox'));
    await waitFor(() => expect(showTopinfo).toHaveBeenCalled());
    expect(showTopinfo.mock.calls[0]![0]).toBe('error');
    expect(showTopinfo.mock.calls[0]![1]).toBe(i18n.t('errors.network'));
  });
});

describe('pay-out history', () => {
  it("shows the transfer's reference on a paid pay-out, in the person's language", async () => {
    const payout = {
      uuid: '00000000-0000-4000-8000-000000000002',
      currency: 643,
      amount: 300_000,
      method: 'card' as const,
      requisites: '•••• 1111',
      status: 'paid' as const,
      reason: null,
      reference: 'SBER-42',
      created_at: '2026-01-01T00:00:00.000Z',
      decided_at: '2026-01-02T00:00:00.000Z',
    };
    vi.spyOn(partnersApi, 'payouts').mockResolvedValue({
      ...NO_PAYOUTS,
      results: [
        payout,
        { ...payout, uuid: '00000000-0000-4000-8000-000000000003', status: 'pending', reference: null },
      ],
    });
    await show(<PayoutForm />, 'ru');
    const references = await screen.findAllByTestId('payout-reference');
    expect(references.map((node) => node.textContent)).toEqual(['Номер перевода: SBER-42']);
  });
});

describe('pay-out form', () => {
  const fill = (name: string, value: string) =>
    fireEvent.input(document.querySelector(`input[name="${name}"]`)!, { target: { value } });
  const value = (name: string) => (document.querySelector(`input[name="${name}"]`) as HTMLInputElement).value;

  it('shows the server’s requisites messages in the person’s language under their inputs and keeps what they typed', async () => {
    vi.spyOn(partnersApi, 'payouts').mockResolvedValue(NO_PAYOUTS);
    const request = vi.spyOn(partnersApi, 'requestPayout').mockRejectedValue(
      new ApiError(400, {
        code: 'common.validation',
        card: ['Enter a valid card number.'],
        holder: ["Enter the holder's full name."],
      }),
    );
    await show(<PayoutForm />, 'ru');
    await screen.findByTestId('payout-submit');
    expect(value('amount')).toBe('5000');
    fill('card', '4111 1111');
    fill('holder', 'I');
    fireEvent.click(screen.getByTestId('payout-submit'));
    await screen.findByText('Введите правильный номер карты.');
    expect(screen.getByText('Введите ФИО получателя.')).toBeTruthy();
    expect(request.mock.calls[0]![0]).toMatchObject({
      amount: 500_000,
      method: 'card',
      card: '4111 1111',
      phone: null,
      holder: 'I',
    });
    expect([value('amount'), value('card'), value('holder')]).toEqual(['5000', '4111 1111', 'I']);
  });

  it('retries a failed request with the same key, and a new request after one went through gets a new key', async () => {
    vi.spyOn(partnersApi, 'payouts').mockResolvedValue(NO_PAYOUTS);
    const request = vi
      .spyOn(partnersApi, 'requestPayout')
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValue({
        uuid: '00000000-0000-4000-8000-000000000001',
        currency: 643,
        amount: 100_000,
        method: 'sbp',
        requisites: '+79123456789',
        status: 'pending',
        reason: null,
        reference: null,
        created_at: '2026-01-01T00:00:00.000Z',
        decided_at: null,
      });
    await show(<PayoutForm />);
    fireEvent.click(await screen.findByTestId('payout-method-sbp'));
    fill('amount', '1000');
    fill('phone', '+7 912 345-67-89');
    fill('bank', 'Bank');
    fill('holder', 'Ivan Petrov');
    const submit = screen.getByTestId('payout-submit');
    for (let i = 1; i <= 3; i += 1) {
      fireEvent.click(submit);
      await waitFor(() => expect(request).toHaveBeenCalledTimes(i));
      await waitFor(() => expect(submit.hasAttribute('disabled')).toBe(false));
    }
    const keys = request.mock.calls.map(([body]) => body.client_key);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[1]);
    expect(request.mock.calls[0]![0]).toMatchObject({ method: 'sbp', card: null, bank: 'Bank' });
  });
});

describe('pay-out amount', () => {
  const fill = (name: string, value: string) =>
    fireEvent.input(document.querySelector(`input[name="${name}"]`)!, { target: { value } });
  const withBalance = (available: number, payable: number) =>
    vi.spyOn(partnersApi, 'payouts').mockResolvedValue({
      ...NO_PAYOUTS,
      balances: [{ currency: 643, available, frozen: 0, pending: 0, reserved: 0, payable }],
    });

  it('offers only earned commission: the top-up part is shown apart and an amount beyond it refused', async () => {
    withBalance(500_000, 200_000);
    const request = vi.spyOn(partnersApi, 'requestPayout');
    await show(<PayoutForm />, 'ru');
    await screen.findByTestId('payout-submit');
    expect(screen.getByTestId('payout-available').textContent).toMatch(/Можно вывести: 2\s000\s₽/);
    expect(screen.getByTestId('payout-spend-only').textContent).toMatch(/3\s000\s₽/);
    expect((document.querySelector('input[name="amount"]') as HTMLInputElement).value).toBe('2000');
    fill('amount', '3000');
    fill('card', '4111 1111 1111 1111');
    fill('holder', 'Иван Петров');
    fireEvent.click(screen.getByTestId('payout-submit'));
    await screen.findByText(/Можно вывести не больше 2\s000\s₽/);
    expect(request).not.toHaveBeenCalled();
  });

  it('with only topped-up money says it is for spending, not that it is below the minimum', async () => {
    withBalance(500_000, 0);
    await show(<PayoutForm />, 'ru');
    const hint = await screen.findByTestId('payout-no-money');
    expect(hint.textContent).toMatch(/Пополнения предназначены для трат/);
    expect(hint.textContent).toMatch(/от 1\s000\s₽/);
    expect(screen.queryByTestId('payout-submit')).toBeNull();
  });

  it('refuses a third decimal and too little in the person’s language, the minimum with its sign', async () => {
    withBalance(500_000, 500_000);
    const request = vi.spyOn(partnersApi, 'requestPayout');
    await show(<PayoutForm />, 'ru');
    await screen.findByTestId('payout-submit');
    expect(screen.getByText(/Минимальная сумма вывода: 1\s000\s₽/)).toBeTruthy();
    fill('card', '4111 1111 1111 1111');
    fill('holder', 'Иван Петров');
    for (const typed of ['600,555', '0', '-5', 'abc']) {
      fill('amount', typed);
      fireEvent.click(screen.getByTestId('payout-submit'));
      await screen.findByText(/Введите сумму больше нуля, не больше двух знаков после запятой/);
      expect((document.querySelector('input[name="amount"]') as HTMLInputElement).value).toBe(typed);
    }
    fill('amount', '600');
    fireEvent.click(screen.getByTestId('payout-submit'));
    await screen.findByText(/Минимальная сумма вывода — 1\s000\s₽\./);
    expect(request).not.toHaveBeenCalled();
  });

  it('shows the server’s amount refusal in the person’s language', async () => {
    withBalance(500_000, 500_000);
    vi.spyOn(partnersApi, 'requestPayout').mockRejectedValue(
      new ApiError(400, { code: 'common.validation', amount: [PAYOUT_AMOUNT_INVALID] }),
    );
    await show(<PayoutForm />, 'de');
    await screen.findByTestId('payout-submit');
    fill('card', '4111 1111 1111 1111');
    fill('holder', 'Erika Mustermann');
    fireEvent.click(screen.getByTestId('payout-submit'));
    await screen.findByText(/Geben Sie einen Betrag über null mit höchstens zwei Nachkommastellen ein/);
  });

  it('shows the server’s minimum with the currency’s sign and the locale’s number format', async () => {
    withBalance(500_000, 500_000);
    vi.spyOn(partnersApi, 'requestPayout').mockRejectedValue(
      new ApiError(400, { code: 'common.validation', amount: [payoutMinimumMessage(150_000)] }),
    );
    await show(<PayoutForm />, 'ru');
    await screen.findByTestId('payout-submit');
    fill('card', '4111 1111 1111 1111');
    fill('holder', 'Иван Петров');
    fireEvent.click(screen.getByTestId('payout-submit'));
    await screen.findByText(/Минимальная сумма вывода — 1\s500\s₽\./);
  });

  it('lets the methods wrap as chips, so a long name never widens the page', async () => {
    vi.spyOn(partnersApi, 'payouts').mockResolvedValue(NO_PAYOUTS);
    await show(<PayoutForm />, 'ru');
    const crypto = await screen.findByTestId('payout-method-crypto');
    expect(crypto.textContent).toBe('Криптовалюта');
    expect(crypto.parentElement!.className).toBe('chips');
  });
});

describe('pay-out in dollars', () => {
  afterEach(() => localStorage.removeItem('wallet_currency'));

  it('follows the chosen money currency: its balance, its minimum, and a request in it', async () => {
    localStorage.setItem('wallet_currency', '840');
    vi.spyOn(partnersApi, 'payouts').mockResolvedValue({
      ...NO_PAYOUTS,
      balances: [
        { currency: 643, available: 500_000, frozen: 0, pending: 0, reserved: 0, payable: 0 },
        { currency: 840, available: 12_345, frozen: 0, pending: 0, reserved: 0, payable: 12_345 },
      ],
      minimum: { '643': 100_000, '840': 1_000 },
    });
    const request = vi.spyOn(partnersApi, 'requestPayout').mockResolvedValue({
      uuid: '00000000-0000-4000-8000-000000000002',
      currency: 840,
      amount: 12_300,
      method: 'card',
      requisites: '•••• 4242',
      status: 'pending',
      reason: null,
      reference: null,
      created_at: '2026-01-01T00:00:00.000Z',
      decided_at: null,
    });
    await show(<PayoutForm />);
    const available = await screen.findByTestId('payout-available');
    expect(available.textContent).toContain('$123.45');
    expect(screen.getByText(/\$10(?![\d.,])/)).toBeTruthy();
    const input = (name: string) => document.querySelector(`input[name="${name}"]`) as HTMLInputElement;
    expect(input('amount').value).toBe('123');
    fireEvent.input(input('card'), { target: { value: '4242 4242 4242 4242' } });
    fireEvent.input(input('holder'), { target: { value: 'Jane Doe' } });
    fireEvent.click(screen.getByTestId('payout-submit'));
    await waitFor(() => expect(request).toHaveBeenCalledTimes(1));
    expect(request.mock.calls[0]![0]).toMatchObject({ currency: 840, amount: 12_300 });
  });

  it('has nothing to pay out when the chosen currency holds less than its minimum', async () => {
    localStorage.setItem('wallet_currency', '840');
    vi.spyOn(partnersApi, 'payouts').mockResolvedValue({
      ...NO_PAYOUTS,
      minimum: { '643': 100_000, '840': 1_000 },
    });
    await show(<PayoutForm />);
    expect((await screen.findByTestId('payout-available')).textContent).toMatch(/\$0(?![\d.,])/);
    expect(screen.queryByTestId('payout-submit')).toBeNull();
  });
});

describe('promo texts', () => {
  const WEB = 'https://mirra.test/sign-up/?ref=abc';
  const MINI_APP = 'https://t.me/mirra_bot/app?startapp=ref_abc';
  afterEach(() => markInTelegram(false));

  it('carry the web reflink in a browser', async () => {
    await show(<PromoMaterials reflink={WEB} telegramReflink={MINI_APP} />);
    const text = await screen.findByTestId('promo-text1');
    await waitFor(() => expect(text.textContent).toContain(WEB));
    expect(text.textContent).not.toContain(MINI_APP);
  });

  it('carry the Mini App link (startapp) inside Telegram', async () => {
    markInTelegram(true, 'android');
    await show(<PromoMaterials reflink={WEB} telegramReflink={MINI_APP} />);
    for (const key of ['text1', 'text2', 'text3']) {
      const text = await screen.findByTestId(`promo-${key}`);
      await waitFor(() => expect(text.textContent).toContain(MINI_APP));
      expect(text.textContent).not.toContain(WEB);
    }
  });
});

describe('team list', () => {
  const page = (names: string[]): TTeamPage => ({
    results: names.map((name, i) => ({
      uuid: `00000000-0000-4000-8000-00000000000${i}`,
      level: 1,
      name,
      username: name.toLowerCase(),
      avatar_url: null,
      date_joined: '2026-01-01T00:00:00.000Z',
      paid: name === 'Paid',
      turnover: 0,
    })),
    next: null,
    currency: 643,
  });

  it('asks for the level, paid filter and trimmed search chosen, and says when nobody matches', async () => {
    vi.spyOn(partnersApi, 'summary').mockResolvedValue(SUMMARY);
    const team = vi
      .spyOn(partnersApi, 'team')
      .mockImplementation(async (filters) => page(filters.paid === 'false' ? [] : ['Paid', 'Free']));
    await show(<TeamList />);
    expect(await screen.findAllByTestId('team-member')).toHaveLength(2);
    expect(screen.getByRole('radio', { name: 'All' }).getAttribute('aria-checked')).toBe('true');
    fireEvent.click(await screen.findByTestId('team-level-2'));
    fireEvent.click(screen.getByRole('radio', { name: 'Not paid' }));
    fireEvent.input(screen.getByPlaceholderText('Search by name'), { target: { value: '  Iv ' } });
    await screen.findByText('Nobody matches these filters');
    expect(team).toHaveBeenLastCalledWith(
      { level: 2, paid: 'false', search: 'Iv', currency: 643 },
      undefined,
    );
    expect(screen.getByRole('radio', { name: 'Not paid' }).getAttribute('aria-checked')).toBe('true');
  });
});
