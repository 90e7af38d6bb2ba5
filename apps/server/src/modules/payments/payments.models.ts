import { z } from 'zod';
import { CURRENCY_RUB, CURRENCY_USD, type TPaymentProduct, type TPaymentRegion } from '@mirra/contracts';

/** One product of the catalogue with its price in each region (minor units). */
export const ZCatalogueEntry = z.object({
  id: z.string().regex(/^[a-z0-9_]{1,64}$/),
  kind: z.enum(['credits', 'unlimited']),
  credits: z.number().int().min(0).default(0),
  days: z.number().int().min(0).default(0),
  /** Minor units in each region; `stars`: whole Telegram Stars inside the Mini App (unset: not sold for Stars). */
  prices: z.object({
    ru: z.number().int().positive(),
    intl: z.number().int().positive(),
    stars: z.number().int().positive().max(10_000).optional(),
  }),
});
export const ZCatalogue = z.array(ZCatalogueEntry).min(1);
export type CatalogueEntry = z.infer<typeof ZCatalogueEntry>;

/** The built-in catalogue: three credit packs and a month of unlimited generation. */
export const DEFAULT_CATALOGUE: CatalogueEntry[] = [
  {
    id: 'credits_100',
    kind: 'credits',
    credits: 100,
    days: 0,
    prices: { ru: 19_900, intl: 299, stars: 150 },
  },
  {
    id: 'credits_300',
    kind: 'credits',
    credits: 300,
    days: 0,
    prices: { ru: 49_900, intl: 699, stars: 350 },
  },
  {
    id: 'credits_1000',
    kind: 'credits',
    credits: 1000,
    days: 0,
    prices: { ru: 149_000, intl: 1999, stars: 1000 },
  },
  {
    id: 'unlimited_30',
    kind: 'unlimited',
    credits: 0,
    days: 30,
    prices: { ru: 99_000, intl: 1299, stars: 650 },
  },
];

/** The configured catalogue (JSON), or the built-in one when none is set. */
export function parseCatalogue(json: string | undefined): CatalogueEntry[] {
  if (!json) return DEFAULT_CATALOGUE;
  return ZCatalogue.parse(JSON.parse(json));
}

/** Russia pays in roubles; every other country (and an unknown one) in US dollars. */
export function regionOfCountry(countryIso: string | null | undefined): TPaymentRegion {
  return countryIso?.toUpperCase() === 'RU' ? 'ru' : 'intl';
}

export function currencyOfRegion(region: TPaymentRegion): number {
  return region === 'ru' ? CURRENCY_RUB : CURRENCY_USD;
}

/** A product as sold in a region: the price the server charges there. */
export function priceProduct(entry: CatalogueEntry, region: TPaymentRegion): TPaymentProduct {
  return {
    id: entry.id,
    kind: entry.kind,
    credits: entry.kind === 'credits' ? entry.credits : 0,
    days: entry.kind === 'unlimited' ? entry.days : 0,
    amount: entry.prices[region],
    currency: currencyOfRegion(region),
    stars: entry.prices.stars ?? 0,
  };
}

/** Only an app path (`/…`, not `//host`) may be returned to; anything else returns home. */
export function safeReturnPath(path: string | undefined): string {
  if (!path || !path.startsWith('/') || path.startsWith('//') || /[\\\s]/.test(path)) return '/';
  return path;
}

/**
 * The return path with the order named, so the app can show how the payment went; a checkout's
 * cancel link also says the buyer cancelled (`payment_cancelled=1`), so the app closes the checkout.
 */
export function returnUrlFor(returnPath: string, orderUuid: string, cancelled = false): string {
  const [pathAndQuery, hash] = returnPath.split('#', 2);
  const joiner = pathAndQuery!.includes('?') ? '&' : '?';
  const marker = cancelled ? '&payment_cancelled=1' : '';
  return `${pathAndQuery}${joiner}payment=${orderUuid}${marker}${hash !== undefined ? `#${hash}` : ''}`;
}

/**
 * What a refund takes back: the credits of the purchase still unspent, never more than the balance
 * (which never goes below zero); the rest was spent and is only recorded.
 */
export function refundCredits(purchased: number, balance: number): { takeBack: number; unrecovered: number } {
  const takeBack = Math.max(0, Math.min(purchased, balance));
  return { takeBack, unrecovered: purchased - takeBack };
}

/** The unlimited package extends from its current end when still running, from now otherwise. */
export function extendUntil(currentUntil: Date | null, now: Date, days: number): Date {
  const from = currentUntil && currentUntil > now ? currentUntil : now;
  return new Date(from.getTime() + days * 86_400_000);
}

/** A refund ends the term it bought: the end moves back by that term, and never past now. */
export function shortenUntil(currentUntil: Date, now: Date, days: number): Date {
  const back = new Date(currentUntil.getTime() - days * 86_400_000);
  return back > now ? back : now;
}

/**
 * How much of a purchase (its credits, or its days) a refund takes back: the buyer keeps the part
 * the money they kept paid for, rounded down — after refunds totalling `refunded` of `amount`
 * they keep floor(units × (amount − refunded) / amount), and the rest is taken back. Refunds add
 * up, so each later one takes back only what the new total adds. A refund of everything (or of
 * an order of no money, a trial) takes back all of it.
 */
export function refundedShare(units: number, amount: number, refunded: number): number {
  if (units <= 0) return 0;
  if (amount <= 0 || refunded >= amount) return units;
  const kept = Math.floor((units * (amount - Math.max(0, refunded))) / amount);
  return units - kept;
}
