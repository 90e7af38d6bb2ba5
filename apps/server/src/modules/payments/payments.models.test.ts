import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CATALOGUE,
  extendUntil,
  parseCatalogue,
  priceProduct,
  refundCredits,
  refundedShare,
  regionOfCountry,
  returnUrlFor,
  safeReturnPath,
  shortenUntil,
} from './payments.models.js';

const day = 86_400_000;

describe('payments rules', () => {
  it('uses the configured catalogue, the built-in one when none, and refuses a malformed one', () => {
    expect(parseCatalogue(undefined)).toBe(DEFAULT_CATALOGUE);
    const custom = parseCatalogue(
      JSON.stringify([{ id: 'credits_5', kind: 'credits', credits: 5, prices: { ru: 1000, intl: 100 } }]),
    );
    expect(priceProduct(custom[0]!, 'ru')).toEqual({
      id: 'credits_5',
      kind: 'credits',
      credits: 5,
      days: 0,
      amount: 1000,
      currency: 643,
      stars: 0,
    });
    expect(() => parseCatalogue('[{"id":"x","kind":"credits","prices":{"ru":0,"intl":1}}]')).toThrow();
    expect(() => parseCatalogue('[]')).toThrow();
  });

  it('prices Russia in roubles and every other or unknown country in dollars', () => {
    expect(regionOfCountry('RU')).toBe('ru');
    expect(regionOfCountry('ru')).toBe('ru');
    expect(regionOfCountry('KZ')).toBe('intl');
    expect(regionOfCountry(null)).toBe('intl');
  });

  it('returns only to an app path, with the order named', () => {
    expect(safeReturnPath('/generate/simple/?a=1')).toBe('/generate/simple/?a=1');
    for (const bad of ['//evil.example/', 'https://evil.example/', '/\\evil', 'x', undefined]) {
      expect(safeReturnPath(bad)).toBe('/');
    }
    expect(returnUrlFor('/a/', 'u')).toBe('/a/?payment=u');
    expect(returnUrlFor('/a/?b=1#c', 'u')).toBe('/a/?b=1&payment=u#c');
    expect(returnUrlFor('/a/?b=1#c', 'u', true)).toBe('/a/?b=1&payment=u&payment_cancelled=1#c');
  });

  it('takes back at most the balance on refund and records the rest', () => {
    expect(refundCredits(100, 250)).toEqual({ takeBack: 100, unrecovered: 0 });
    expect(refundCredits(100, 30)).toEqual({ takeBack: 30, unrecovered: 70 });
    expect(refundCredits(100, 0)).toEqual({ takeBack: 0, unrecovered: 100 });
  });

  it('extends the unlimited package from its end while it runs, and ends a refunded term', () => {
    const now = new Date('2026-05-01T00:00:00Z');
    const running = new Date(now.getTime() + 10 * day);
    expect(extendUntil(running, now, 30).getTime()).toBe(now.getTime() + 40 * day);
    expect(extendUntil(new Date(now.getTime() - day), now, 30).getTime()).toBe(now.getTime() + 30 * day);
    expect(extendUntil(null, now, 30).getTime()).toBe(now.getTime() + 30 * day);
    expect(shortenUntil(new Date(now.getTime() + 40 * day), now, 30).getTime()).toBe(
      now.getTime() + 10 * day,
    );
    expect(shortenUntil(new Date(now.getTime() + 20 * day), now, 30)).toEqual(now);
  });
});

describe('refundedShare', () => {
  it('takes back the share the refunded money paid for, the buyer keeping the rounded-down rest', () => {
    expect(refundedShare(100, 299, 100)).toBe(34);
    expect(refundedShare(100, 299, 200)).toBe(67);
    expect(refundedShare(100, 19_900, 9_950)).toBe(50);
    expect(refundedShare(30, 1000, 1)).toBe(1);
  });
  it('takes back everything for a whole refund, an order of no money, and nothing for none', () => {
    expect(refundedShare(100, 299, 299)).toBe(100);
    expect(refundedShare(50, 0, 0)).toBe(50);
    expect(refundedShare(100, 299, 0)).toBe(0);
    expect(refundedShare(0, 299, 100)).toBe(0);
  });
});
