import { describe, expect, it } from 'vitest';
import { pickLanguage } from './limits.js';

describe('pickLanguage', () => {
  it.each([
    ['ru-RU,ru;q=0.9,en-US;q=0.8', 'ru'],
    ['fr-FR,de;q=0.5,en;q=0.4', 'de'],
    ['en;q=0.1, kk;q=0.9', 'kk'],
    ['uk', 'uk'],
    ['AZ-az', 'az'],
    ['fr, es', 'en'],
    ['', 'en'],
    [undefined, 'en'],
    ['ru;q=0, de', 'de'],
  ])('%s → %s', (header, expected) => {
    expect(pickLanguage(header)).toBe(expected);
  });
});
