import type { TLanguage } from '@mirra/contracts';

/**
 * Pure rules of photo packs: what a pack costs, how that price is shared among its pictures, and
 * its texts in the reader's language.
 */

/** The price of a whole pack: its own, or the per-picture price times its pictures. */
export function packPrice(ownPrice: number | null, pictures: number, perPicture: number): number {
  return ownPrice ?? perPicture * pictures;
}

/**
 * Each picture's share of the pack's price, in whole credits, adding up to the price exactly: the
 * remainder goes one credit each to the first pictures. A picture that fails is refunded its share,
 * so 3 failed pictures of 20 give back 3/20 of the price (to within a credit per picture).
 */
export function packShares(price: number, pictures: number): number[] {
  const base = Math.floor(price / pictures);
  const remainder = price - base * pictures;
  return Array.from({ length: pictures }, (_, index) => base + (index < remainder ? 1 : 0));
}

/** A text in the reader's language; English when a language's text is missing. */
export function inLanguage(texts: Partial<Record<TLanguage, string>>, language: TLanguage): string {
  return texts[language] ?? texts.en ?? '';
}
