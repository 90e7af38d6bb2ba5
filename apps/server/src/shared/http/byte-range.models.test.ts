import { describe, expect, it } from 'vitest';
import { chooseByteRange } from './byte-range.models.js';

describe('chooseByteRange', () => {
  it.each([
    [undefined, 1000, { kind: 'whole' }],
    ['bytes=0-99', 1000, { kind: 'partial', start: 0, end: 99 }],
    ['bytes=500-', 1000, { kind: 'partial', start: 500, end: 999 }],
    ['bytes=900-5000', 1000, { kind: 'partial', start: 900, end: 999 }],
    ['bytes=-100', 1000, { kind: 'partial', start: 900, end: 999 }],
    ['bytes=-5000', 1000, { kind: 'partial', start: 0, end: 999 }],
    ['bytes=0-0', 1, { kind: 'partial', start: 0, end: 0 }],
    ['bytes=1000-', 1000, { kind: 'unsatisfiable' }],
    ['bytes=-0', 1000, { kind: 'unsatisfiable' }],
    ['bytes=0-', 0, { kind: 'unsatisfiable' }],
    // Served whole: several ranges, other units, nonsense, a reversed range.
    ['bytes=0-1,5-6', 1000, { kind: 'whole' }],
    ['items=0-1', 1000, { kind: 'whole' }],
    ['bytes=abc', 1000, { kind: 'whole' }],
    ['bytes=-', 1000, { kind: 'whole' }],
    ['bytes=50-10', 1000, { kind: 'whole' }],
  ] as const)('%s of %i bytes → %o', (header, size, expected) => {
    expect(chooseByteRange(header, size)).toEqual(expected);
  });
});
