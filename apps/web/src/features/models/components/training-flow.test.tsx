import type { TPaymentCatalogue } from '@mirra/contracts';
import { GenerationStatus } from '@mirra/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-error';
import type { TModel } from '../../../lib/api-types';
import { createTestI18n } from '../../../test/i18n';
import { jsonResponse } from '../../../test/http';
import { paymentsApi } from '../../payments';
import { checkoutNavigation } from '../../payments/components/purchase-sheet';
import { modelsApi } from '../api/models.api';
import { MIN_TRAINING_PROGRESS_MS } from '../model-status';
import { ModelDetails } from './model-details';

const UUID = '0b7f6d0e-8a59-4b0f-9f43-51c1ab7f3c11';
const model = (overrides: Partial<TModel> = {}): TModel => ({
  uuid: UUID,
  name: 'Holiday me',
  category: 'female',
  status: GenerationStatus.NEW,
  progress: 0,
  reference_count: 15,
  photo_count: 15,
  min_photos: 15,
  cost: 0,
  training_price: 100,
  training_seconds: 30,
  cover_url: null,
  created_at: '2026-11-28T10:00:00.000Z',
  trained_at: null,
  error_code: null,
  error_detail: null,
  photos: [],
  live_check: 'passed',
  subject: 'self',
  consent: null,
  ...overrides,
});
const CATALOGUE: TPaymentCatalogue = {
  region: 'intl',
  currency: 840,
  products: [
    { id: 'credits_100', kind: 'credits', credits: 100, days: 0, amount: 299, currency: 840, stars: 150 },
  ],
  methods: ['test'],
  receipt_email_methods: [],
  stars_methods: [],
};
const json = jsonResponse;

let i18n: I18n;
beforeAll(async () => {
  i18n = await createTestI18n('en');
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

function Where() {
  const location = useLocation();
  return <output data-testid="where">{`${location.pathname}${location.search}`}</output>;
}

/** The model's page at `path`, with a balance of 10 credits; `shown` is the model on screen. */
function renderDetails(path: string, shown: TModel) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => json(200, { balance: 10, unlimited_until: null, balances: [] })),
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = (current: TModel) => (
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={[path]}>
          <ModelDetails model={current} isPolling={false} />
          <Where />
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>
  );
  const result = render(view(shown));
  return { rerender: (next: TModel) => result.rerender(view(next)) };
}

describe('training a model that costs more than the balance', () => {
  it('buys credits to come back to this model, which then asks to train at once', async () => {
    vi.spyOn(modelsApi, 'train').mockRejectedValue(
      new ApiError(402, { detail: 'Not enough credits.', code: 'credits.insufficient', difference: 90 }),
    );
    vi.spyOn(paymentsApi, 'catalogue').mockResolvedValue(CATALOGUE);
    const create = vi
      .spyOn(paymentsApi, 'createOrder')
      .mockResolvedValue({ uuid: 'o', confirmation_url: '/checkout/o/' });
    const go = vi.spyOn(checkoutNavigation, 'go').mockImplementation(() => {});
    // Started on the new-model form: the return must not be that form, blank after a reload.
    renderDetails('/upload/', model());
    fireEvent.click(screen.getByTestId('train-submit'));
    fireEvent.click(await screen.findByTestId('train-confirm'));
    fireEvent.click(await screen.findByTestId('credits-buy-more'));
    await screen.findByTestId('purchase-sheet');
    fireEvent.click(screen.getByTestId('consent-offer'));
    fireEvent.click(screen.getByTestId('consent-privacy'));
    fireEvent.click(screen.getByTestId('purchase-submit'));
    await waitFor(() => expect(go).toHaveBeenCalledWith('/checkout/o/'));
    expect(create.mock.calls[0]![0].return).toBe(`/model/${UUID}/?train=1`);
  });

  it('back from the checkout, asks to train once the payment’s result is closed, and not again', async () => {
    // The payment's own sheet comes first: nothing else is asked over it.
    renderDetails(`/model/${UUID}/?train=1&payment=0b7f6d0e-8a59-4b0f-9f43-51c1ab7f3c12`, model());
    expect(screen.queryByTestId('train-confirm-sheet')).toBeNull();
    cleanup();
    renderDetails(`/model/${UUID}/?train=1`, model());
    await screen.findByTestId('train-confirm-sheet');
    expect(screen.getByTestId('train-confirm').textContent).toBe('Train for 100 credits');
    fireEvent.click(screen.getByTestId('train-cancel'));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe(`/model/${UUID}/`));
  });
});

describe('the training price, before and in the question', () => {
  it('names a price as "costs N credits", and a free first training only as free (never "costs Free")', async () => {
    renderDetails(`/model/${UUID}/`, model());
    const paid = screen.getByTestId('train-panel').querySelector('.price-line')!;
    expect(paid.textContent).toContain(`${i18n.t('model.price')} 100 credits`);
    cleanup();
    for (const language of ['en', 'de']) {
      await i18n.changeLanguage(language);
      renderDetails(`/model/${UUID}/`, model({ training_price: 0 }));
      fireEvent.click(screen.getByTestId('train-submit'));
      const sheet = await screen.findByTestId('train-confirm-sheet');
      for (const line of [screen.getByTestId('train-panel'), sheet].map((el) =>
        el.querySelector('.price-line')!,
      )) {
        expect(line.textContent).toContain(i18n.t('model.priceFree'));
        expect(line.textContent).not.toContain(i18n.t('model.price'));
      }
      cleanup();
    }
    await i18n.changeLanguage('en');
  });
});

describe('a training that ends in about a second', () => {
  it('keeps its progress on screen for a moment, the bar full, then says it is ready', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const started = model({ status: GenerationStatus.IN_QUEUE, training_price: 0 });
    vi.spyOn(modelsApi, 'train').mockResolvedValue(started);
    vi.spyOn(modelsApi, 'get').mockResolvedValue(started);
    const page = renderDetails(`/model/${UUID}/`, model({ training_price: 0 }));
    fireEvent.click(screen.getByTestId('train-submit'));
    fireEvent.click(await screen.findByTestId('train-confirm'));
    await screen.findByTestId('training-progress');
    // Done at once, as the local engine is.
    page.rerender(model({ status: GenerationStatus.COMPLETED, progress: 100, training_price: 0 }));
    await waitFor(() => expect(screen.getAllByTestId('training-percent').at(-1)!.textContent).toBe('100%'));
    expect(screen.queryByTestId('training-ready')).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(MIN_TRAINING_PROGRESS_MS));
    await screen.findByTestId('training-ready');
  });
});

describe('the live check before training', () => {
  it('asks for the live check before the training question; without a camera, the same step on a phone', async () => {
    // jsdom has no camera: the check says so and offers the same step on a phone.
    renderDetails(`/model/${UUID}/`, model({ live_check: null }));
    expect(screen.getByTestId('live-check-note').textContent).toContain('camera check');
    fireEvent.click(screen.getByTestId('train-submit'));
    await screen.findByTestId('live-check');
    expect(screen.queryByTestId('train-confirm-sheet')).toBeNull();
    fireEvent.click(screen.getByTestId('live-check-start'));
    const blocked = await screen.findByTestId('live-check-blocked');
    expect(blocked.getAttribute('data-reason')).toBe('noCamera');
    expect(screen.getByTestId('live-check-link').getAttribute('href')).toBe(
      `${window.location.origin}/model/${UUID}/?live-check=1`,
    );
  });

  it('opens the live check at once from the phone link', async () => {
    renderDetails(`/model/${UUID}/?live-check=1`, model({ live_check: null }));
    await screen.findByTestId('live-check-start');
  });
});
