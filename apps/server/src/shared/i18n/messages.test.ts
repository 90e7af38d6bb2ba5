import { LANGUAGES } from '@mirra/contracts';
import { describe, expect, it } from 'vitest';
import { serverCatalogue, translate } from './messages.js';

describe('server messages', () => {
  const keys = Object.keys(serverCatalogue.en);

  it.each(LANGUAGES.filter((l) => l !== 'en'))(
    'are all translated into %s, with the same placeholders',
    (language) => {
      expect(Object.keys(serverCatalogue[language]).sort()).toEqual([...keys].sort());
      for (const key of keys as Array<keyof typeof serverCatalogue.en>) {
        const text = serverCatalogue[language][key];
        expect(text.trim(), `${language}.${key}`).not.toBe('');
        expect(text, `${language}.${key} is still English`).not.toBe(serverCatalogue.en[key]);
        const placeholders = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
        expect(placeholders(text), `${language}.${key}`).toEqual(placeholders(serverCatalogue.en[key]));
      }
    },
  );

  it('fill placeholders and fall back to English for unknown languages', () => {
    expect(translate('de', 'email.reset.body', { name: ', Ute', link: 'L', hours: 24 })).toContain(
      'Hallo, Ute',
    );
    expect(translate('xx', 'bot.open_app')).toBe('Open Mirra');
    expect(translate(null, 'bot.open_app')).toBe('Open Mirra');
  });
});
