import {
  MODE_PRICE_KEYS,
  PRICING_BOUNDS,
  type TCatalogueProduct,
  type TPricingSettings,
} from '@mirra/contracts';

/**
 * The catalogue and prices as the console's form holds them: every number as typed, money in
 * roubles and dollars (two decimals) rather than kopecks and cents, so nothing typed is lost and
 * an extra zero is less likely. `settingsOfDraft` turns it back, or says what is wrong where.
 */
export interface PricingDraft {
  prices: Record<keyof TPricingSettings['prices'], string>;
  free_tier: Record<keyof TPricingSettings['free_tier'], string>;
  catalogue: ProductDraft[];
  plan: {
    id: string;
    period_days: string;
    trial_days: string;
    trial_credits: string;
    credits: string;
    ru: string;
    intl: string;
    xtr: string;
  };
}

export interface ProductDraft {
  id: string;
  kind: TCatalogueProduct['kind'];
  /** Credits of a pack, days of unlimited. */
  amount: string;
  ru: string;
  intl: string;
  stars: string;
}

/** What is wrong with a field: a text key of the console's catalogue and its values. */
export interface FieldProblem {
  key: string;
  values?: Record<string, number | string>;
}

const major = (minor: number) => (minor / 100).toFixed(2);
const text = (value: number | undefined) => (value === undefined ? '' : String(value));

export function draftOf(settings: TPricingSettings): PricingDraft {
  return {
    prices: Object.fromEntries(
      MODE_PRICE_KEYS.map((key) => [key, String(settings.prices[key])]),
    ) as PricingDraft['prices'],
    free_tier: {
      daily_photos: String(settings.free_tier.daily_photos),
      delay_seconds: String(settings.free_tier.delay_seconds),
    },
    catalogue: settings.catalogue.map((product) => ({
      id: product.id,
      kind: product.kind,
      amount: String(product.kind === 'credits' ? product.credits : product.days),
      ru: major(product.prices.ru),
      intl: major(product.prices.intl),
      stars: text(product.prices.stars),
    })),
    plan: {
      id: settings.plan.id,
      period_days: String(settings.plan.period_days),
      trial_days: String(settings.plan.trial_days),
      trial_credits: String(settings.plan.trial_credits),
      credits: String(settings.plan.credits),
      ru: major(settings.plan.prices.ru),
      intl: major(settings.plan.prices.intl),
      xtr: text(settings.plan.prices.xtr),
    },
  };
}

export const emptyProduct = (): ProductDraft => ({
  id: '',
  kind: 'credits',
  amount: '',
  ru: '',
  intl: '',
  stars: '',
});

/**
 * The settings a draft stands for, or the problems by field (`prices.simple`, `catalogue.0.ru`,
 * `plan.period_days`). The server checks the same bounds again.
 */
export function settingsOfDraft(
  draft: PricingDraft,
):
  | { settings: TPricingSettings; problems: null }
  | { settings: null; problems: Record<string, FieldProblem> } {
  const problems: Record<string, FieldProblem> = {};
  const whole = (path: string, raw: string, bounds: { min: number; max: number }): number => {
    const value = raw.trim();
    const number = /^\d+$/.test(value) ? Number(value) : NaN;
    if (!Number.isInteger(number) || number < bounds.min || number > bounds.max) {
      problems[path] = { key: 'admin.pricing.errors.whole', values: { min: bounds.min, max: bounds.max } };
    }
    return number;
  };
  const optionalWhole = (path: string, raw: string, bounds: { min: number; max: number }) =>
    raw.trim() === '' ? undefined : whole(path, raw, bounds);
  // Money as typed (199, 199.9, 199,90) to minor units, within the bounds given in minor units.
  const money = (path: string, raw: string, bounds: { min: number; max: number }): number => {
    const value = raw.trim().replace(',', '.');
    const minor = /^\d+(\.\d{1,2})?$/.test(value) ? Math.round(Number(value) * 100) : NaN;
    if (!Number.isInteger(minor) || minor < bounds.min || minor > bounds.max) {
      problems[path] = {
        key: 'admin.pricing.errors.money',
        values: { min: major(bounds.min), max: major(bounds.max) },
      };
    }
    return minor;
  };
  const id = (path: string, raw: string) => {
    const value = raw.trim();
    if (!/^[a-z0-9_]{1,64}$/.test(value)) problems[path] = { key: 'admin.pricing.errors.id' };
    return value;
  };

  const prices = Object.fromEntries(
    MODE_PRICE_KEYS.map((key) => [key, whole(`prices.${key}`, draft.prices[key], PRICING_BOUNDS.modePrice)]),
  ) as TPricingSettings['prices'];
  const freeTier = {
    daily_photos: whole('free_tier.daily_photos', draft.free_tier.daily_photos, PRICING_BOUNDS.dailyPhotos),
    delay_seconds: whole(
      'free_tier.delay_seconds',
      draft.free_tier.delay_seconds,
      PRICING_BOUNDS.delaySeconds,
    ),
  };
  if (draft.catalogue.length < PRICING_BOUNDS.products.min) {
    problems.catalogue = { key: 'admin.pricing.errors.noProducts' };
  }
  const seen = new Set<string>();
  const catalogue = draft.catalogue.map((product, index): TCatalogueProduct => {
    const at = `catalogue.${index}`;
    const productId = id(`${at}.id`, product.id);
    if (seen.has(productId)) problems[`${at}.id`] = { key: 'admin.pricing.errors.duplicate' };
    seen.add(productId);
    const amount = whole(
      `${at}.amount`,
      product.amount,
      product.kind === 'credits' ? PRICING_BOUNDS.packCredits : PRICING_BOUNDS.packDays,
    );
    const stars = optionalWhole(`${at}.stars`, product.stars, PRICING_BOUNDS.stars);
    return {
      id: productId,
      kind: product.kind,
      credits: product.kind === 'credits' ? amount : 0,
      days: product.kind === 'unlimited' ? amount : 0,
      prices: {
        ru: money(`${at}.ru`, product.ru, PRICING_BOUNDS.ru),
        intl: money(`${at}.intl`, product.intl, PRICING_BOUNDS.intl),
        ...(stars === undefined ? {} : { stars }),
      },
    };
  });
  const xtr = optionalWhole('plan.xtr', draft.plan.xtr, PRICING_BOUNDS.stars);
  const plan: TPricingSettings['plan'] = {
    id: id('plan.id', draft.plan.id),
    period_days: whole('plan.period_days', draft.plan.period_days, PRICING_BOUNDS.planPeriodDays),
    trial_days: whole('plan.trial_days', draft.plan.trial_days, PRICING_BOUNDS.planTrialDays),
    trial_credits: whole('plan.trial_credits', draft.plan.trial_credits, PRICING_BOUNDS.planCredits),
    credits: whole('plan.credits', draft.plan.credits, PRICING_BOUNDS.planCredits),
    prices: {
      ru: money('plan.ru', draft.plan.ru, PRICING_BOUNDS.ru),
      intl: money('plan.intl', draft.plan.intl, PRICING_BOUNDS.intl),
      ...(xtr === undefined ? {} : { xtr }),
    },
  };
  if (Object.keys(problems).length) return { settings: null, problems };
  return { settings: { prices, free_tier: freeTier, catalogue, plan }, problems: null };
}
