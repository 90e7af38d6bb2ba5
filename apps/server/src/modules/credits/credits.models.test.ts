import { describe, expect, it } from 'vitest';
import { MODE_PRICE_KEYS, VIDEO_DURATION_DEFAULT, type TModePrices } from '@mirra/contracts';
import { priceGeneration, shortfall } from './credits.models.js';

const prices = {
  ...(Object.fromEntries(MODE_PRICE_KEYS.map((key) => [key, 1])) as TModePrices),
  face_swap: 2,
  styling: 3,
  video_per_second: 2,
};

describe('credit rules', () => {
  it('prices each mode from configuration, video by the second', () => {
    expect(priceGeneration('simple', {}, prices)).toBe(1);
    expect(priceGeneration('styling', {}, prices)).toBe(3);
    expect(priceGeneration('video', { durationSeconds: 5 }, prices)).toBe(10);
    // A video without a length is priced for the length it renders.
    expect(priceGeneration('video', {}, prices)).toBe(
      priceGeneration('video', { durationSeconds: VIDEO_DURATION_DEFAULT }, prices),
    );
  });

  it('computes the shortfall', () => {
    expect(shortfall(3, 5)).toBe(2);
    expect(shortfall(8, 5)).toBe(0);
  });
});
