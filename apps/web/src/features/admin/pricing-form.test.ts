import { MODE_PRICE_KEYS, type TModePrices, type TPricingSettings } from '@mirra/contracts';
import { describe, expect, it } from 'vitest';
import { draftOf, emptyProduct, settingsOfDraft } from './pricing-form';

const settings: TPricingSettings = {
  prices: { ...(Object.fromEntries(MODE_PRICE_KEYS.map((key) => [key, 5])) as TModePrices), face_swap: 10 },
  free_tier: { daily_photos: 5, delay_seconds: 30 },
  catalogue: [
    {
      id: 'credits_100',
      kind: 'credits',
      credits: 100,
      days: 0,
      prices: { ru: 19_900, intl: 299, stars: 150 },
    },
    { id: 'unlimited_30', kind: 'unlimited', credits: 0, days: 30, prices: { ru: 99_000, intl: 1299 } },
  ],
  plan: {
    id: 'premium_monthly',
    period_days: 30,
    trial_days: 3,
    trial_credits: 50,
    credits: 300,
    prices: { ru: 99_000, intl: 1299, xtr: 650 },
  },
};

describe('the pricing form', () => {
  it('shows money in roubles and dollars and gives back the same settings', () => {
    const draft = draftOf(settings);
    expect(draft.catalogue[0]).toMatchObject({ ru: '199.00', intl: '2.99', stars: '150' });
    expect(draft.catalogue[1]!.stars).toBe('');
    expect(settingsOfDraft(draft)).toEqual({ settings, problems: null });
  });

  it('reads a decimal comma and whole amounts', () => {
    const draft = draftOf(settings);
    draft.catalogue[0] = { ...draft.catalogue[0]!, ru: '249,5', intl: '3' };
    expect(settingsOfDraft(draft).settings?.catalogue[0]!.prices).toEqual({
      ru: 24_950,
      intl: 300,
      stars: 150,
    });
  });

  it('names every field that is wrong', () => {
    const draft = draftOf(settings);
    draft.prices.simple = '2.5';
    draft.free_tier.delay_seconds = '';
    draft.catalogue.push({ ...emptyProduct(), id: 'credits_100', amount: '0', ru: '1.999', intl: 'x' });
    draft.plan.period_days = '0';
    const { problems } = settingsOfDraft(draft);
    expect(Object.keys(problems ?? {}).sort()).toEqual([
      'catalogue.2.amount',
      'catalogue.2.id',
      'catalogue.2.intl',
      'catalogue.2.ru',
      'free_tier.delay_seconds',
      'plan.period_days',
      'prices.simple',
    ]);
    expect(problems!['catalogue.2.id']!.key).toBe('admin.pricing.errors.duplicate');
    expect(problems!['prices.simple']).toEqual({
      key: 'admin.pricing.errors.whole',
      values: { min: 0, max: 10_000 },
    });
    expect(settingsOfDraft({ ...draftOf(settings), catalogue: [] }).problems).toEqual({
      catalogue: { key: 'admin.pricing.errors.noProducts' },
    });
  });
});
