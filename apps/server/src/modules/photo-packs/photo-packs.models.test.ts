import { describe, expect, it } from 'vitest';
import { inLanguage, packPrice, packShares } from './photo-packs.models.js';

describe('photo pack prices', () => {
  it('is its own price, or the per-picture price times its pictures', () => {
    expect(packPrice(99, 20, 3)).toBe(99);
    expect(packPrice(null, 20, 3)).toBe(60);
  });

  it('shares the price among the pictures in whole credits adding up to it exactly', () => {
    for (const [price, pictures] of [
      [100, 20],
      [99, 20],
      [7, 10],
      [401, 40],
    ] as const) {
      const shares = packShares(price, pictures);
      expect(shares).toHaveLength(pictures);
      expect(shares.reduce((sum, share) => sum + share, 0)).toBe(price);
      expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
    }
    // Three failed pictures of twenty give back three twentieths.
    expect(
      packShares(100, 20)
        .slice(0, 3)
        .reduce((a, b) => a + b),
    ).toBe(15);
  });

  it('reads a text in the reader language, English when it is missing', () => {
    expect(inLanguage({ en: 'Winter', ru: 'Зима' }, 'ru')).toBe('Зима');
    expect(inLanguage({ en: 'Winter' }, 'kk')).toBe('Winter');
  });
});
