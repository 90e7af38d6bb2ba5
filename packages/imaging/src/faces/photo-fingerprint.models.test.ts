import { describe, expect, it } from 'vitest';
import { differenceHash, fingerprintDistance } from './photo-fingerprint.models.js';

/** A greyscale image of (side + 1) × side pixels from a brightness function. */
const grey = (side: number, at: (row: number, column: number) => number) =>
  Uint8Array.from({ length: (side + 1) * side }, (_, i) => at(Math.floor(i / (side + 1)), i % (side + 1)));

describe('difference hash', () => {
  it('sets a bit where a pixel is darker than its right neighbour, row by row, as hex', () => {
    expect(
      differenceHash(
        grey(4, (_, column) => column * 10),
        4,
      ),
    ).toBe('ffff');
    expect(
      differenceHash(
        grey(4, (_, column) => 200 - column * 10),
        4,
      ),
    ).toBe('0000');
    // Only the first row brightens to the right.
    expect(
      differenceHash(
        grey(4, (row, column) => (row === 0 ? column : 0)),
        4,
      ),
    ).toBe('f000');
  });

  it('does not change when the whole picture is lighter or darker', () => {
    const picture = (row: number, column: number) => ((row * 7 + column * 13) % 17) * 5;
    expect(differenceHash(grey(16, (r, c) => picture(r, c) + 40))).toBe(differenceHash(grey(16, picture)));
    expect(differenceHash(grey(16, picture))).toHaveLength(64);
  });

  it('refuses pixels of the wrong count', () => {
    expect(() => differenceHash(new Uint8Array(10), 4)).toThrow();
  });

  it('counts the bits two fingerprints differ in', () => {
    expect(fingerprintDistance('00', '00')).toBe(0);
    expect(fingerprintDistance('0f', '00')).toBe(4);
    expect(fingerprintDistance('ff', '00')).toBe(8);
    expect(fingerprintDistance('a0', '50')).toBe(4);
    expect(fingerprintDistance('00', '000')).toBe(Number.POSITIVE_INFINITY);
  });
});
