import { describe, expect, it } from 'vitest';
import { takeTokenParam } from './boot';

describe('the token query parameter', () => {
  it('is taken and removed from the address', () => {
    expect(takeTokenParam('https://mirra.app/profile/?token=abc.def&utm_source=x#top')).toEqual({
      token: 'abc.def',
      cleanUrl: '/profile/?utm_source=x#top',
    });
  });

  it('leaves other addresses alone', () => {
    expect(takeTokenParam('https://mirra.app/?q=1')).toEqual({
      token: null,
      cleanUrl: 'https://mirra.app/?q=1',
    });
  });

  it('ignores an empty token but still cleans the address', () => {
    expect(takeTokenParam('https://mirra.app/?token=')).toEqual({ token: null, cleanUrl: '/' });
  });
});
