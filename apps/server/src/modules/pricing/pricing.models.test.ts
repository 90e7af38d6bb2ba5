import {
  MODE_PRICE_KEYS,
  ZAdminPricingBody,
  type TModePrices,
  type TPricingSettings,
} from '@mirra/contracts';
import { describe, expect, it } from 'vitest';
import { mergePricing, overriddenPaths, overridesFor, readOverrides } from './pricing.models.js';

const defaults: TPricingSettings = {
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

describe('merging the console over the configuration', () => {
  it('with nothing stored, the defaults are in force', () => {
    expect(mergePricing(defaults, {})).toEqual(defaults);
    expect(overridesFor(defaults, defaults)).toEqual({});
  });

  it('stores only what differs, and merges it back to what was asked', () => {
    const wanted: TPricingSettings = {
      ...defaults,
      prices: { ...defaults.prices, face_swap: 12 },
      free_tier: { daily_photos: 5, delay_seconds: 60 },
      plan: { ...defaults.plan, trial_days: 0 },
    };
    const overrides = overridesFor(defaults, wanted);
    expect(overrides).toEqual({
      prices: { face_swap: 12 },
      free_tier: { delay_seconds: 60 },
      plan: wanted.plan,
    });
    expect(mergePricing(defaults, overrides)).toEqual(wanted);
    expect(overriddenPaths(overrides)).toEqual(['prices.face_swap', 'free_tier.delay_seconds', 'plan']);
  });

  it('a mode price left alone follows a later change of the configuration', () => {
    const overrides = overridesFor(defaults, { ...defaults, prices: { ...defaults.prices, simple: 7 } });
    const newDefaults = { ...defaults, prices: { ...defaults.prices, editing: 8 } };
    expect(mergePricing(newDefaults, overrides).prices).toMatchObject({ simple: 7, editing: 8 });
  });

  it('the product list overrides whole; credits or days that do not count are not a change', () => {
    const same = defaults.catalogue.map((p) => (p.kind === 'unlimited' ? { ...p, credits: 99 } : p));
    expect(overridesFor(defaults, { ...defaults, catalogue: same })).toEqual({});
    const dearer = defaults.catalogue.map((p) => ({ ...p, prices: { ...p.prices, ru: p.prices.ru + 100 } }));
    const overrides = overridesFor(defaults, { ...defaults, catalogue: dearer });
    expect(overrides.catalogue?.map((p) => p.prices.ru)).toEqual([20_000, 99_100]);
    expect(mergePricing(defaults, overrides).catalogue).toEqual(overrides.catalogue);
  });

  it('a stored section that no longer passes the rules is dropped, the rest kept', () => {
    const { overrides, dropped } = readOverrides({
      prices: { simple: 7 },
      free_tier: { delay_seconds: -5 },
      catalogue: [],
    });
    expect(overrides).toEqual({ prices: { simple: 7 } });
    expect(dropped.sort()).toEqual(['catalogue', 'free_tier']);
    expect(readOverrides(null)).toEqual({ overrides: {}, dropped: [] });
  });
});

describe('the rules of the console', () => {
  const valid = { ...defaults, reason: 'new season' };
  const problems = (body: unknown) =>
    (ZAdminPricingBody.safeParse(body).error?.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`);

  it('accepts the defaults with a reason, and trims the reason', () => {
    expect(problems(valid)).toEqual([]);
    expect(ZAdminPricingBody.parse({ ...valid, reason: '  why  ' }).reason).toBe('why');
  });

  it('refuses what a typo would make', () => {
    expect(problems({ ...valid, prices: { ...defaults.prices, simple: 100_000 } })).toEqual([
      'prices.simple: At most 10000.',
    ]);
    expect(problems({ ...valid, prices: { ...defaults.prices, video_per_second: 1.5 } })).toEqual([
      'prices.video_per_second: Enter a whole number.',
    ]);
    expect(problems({ ...valid, free_tier: { daily_photos: -1, delay_seconds: 30 } })).toEqual([
      'free_tier.daily_photos: At least 0.',
    ]);
    expect(problems({ ...valid, reason: ' ' })).toEqual(['reason: Say why.']);
  });

  it('checks products: ids, duplicates, what a pack gives, prices per region', () => {
    const [pack, unlimited] = defaults.catalogue;
    expect(problems({ ...valid, catalogue: [] })).toEqual(['catalogue: Keep at least one product.']);
    expect(problems({ ...valid, catalogue: [pack, pack] })).toEqual([
      'catalogue.1.id: Each product needs its own id.',
    ]);
    expect(problems({ ...valid, catalogue: [{ ...pack, id: 'Big Pack' }] })).toEqual([
      'catalogue.0.id: Use 1–64 small Latin letters, digits or _.',
    ]);
    expect(problems({ ...valid, catalogue: [{ ...pack, credits: 0 }] })).toEqual([
      'catalogue.0.credits: A pack gives at least 1 credit.',
    ]);
    expect(problems({ ...valid, catalogue: [{ ...unlimited, days: 0 }] })).toEqual([
      'catalogue.0.days: Unlimited lasts at least 1 day.',
    ]);
    expect(problems({ ...valid, catalogue: [{ ...pack, prices: { ru: 0, intl: 299 } }] })).toEqual([
      'catalogue.0.prices.ru: At least 1.',
    ]);
  });

  it('checks the plan', () => {
    expect(problems({ ...valid, plan: { ...defaults.plan, period_days: 0, trial_days: 400 } })).toEqual([
      'plan.period_days: At least 1.',
      'plan.trial_days: At most 90.',
    ]);
  });
});
