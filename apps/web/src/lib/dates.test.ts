import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestI18n } from '../test/i18n';
import { formatDateTime, formatDay, formatMonthShort, formatRelative } from './dates';
import { numberFormat, resetLocaleDataCache } from './locale-fallback';

const JOINED = '2026-11-05T14:30:00Z';

/** "Member since …" as the profile card writes it, in each language. */
async function since(language: 'en' | 'ru' | 'de' | 'uk' | 'kk' | 'az') {
  const i18n = await createTestI18n(language);
  return i18n.t('profile.since', { date: formatDay(JOINED, language, 'UTC') });
}

describe('dates in every language', () => {
  it('writes "since" with the month in the case the phrase needs (genitive in ru and uk)', async () => {
    expect(await since('ru')).toMatch(/^с 5 ноября 2026/);
    expect(await since('uk')).toMatch(/^з 5 листопада 2026/);
    expect(await since('de')).toBe('seit 5. November 2026');
    expect(await since('en')).toBe('since November 5, 2026');
    expect(await since('az')).toBe('5 noyabr 2026 tarixindən');
    // Kazakh "бастап" would need the ablative on the date itself, so the card says "joined on".
    expect(await since('kk')).toMatch(/^тіркелген күні: 2026\u00a0ж\. 5 қараша$/);
  });

  it('never shows a month on its own in the nominative after a preposition', async () => {
    expect(await since('ru')).not.toMatch(/ноябрь/);
    expect(await since('uk')).not.toMatch(/листопад /);
  });

  it('writes a moment as day and time in each language’s own order', () => {
    expect(formatDateTime(JOINED, 'ru', 'UTC')).toMatch(/^5 нояб\. 2026\u00a0г\., 14:30$/);
    expect(formatDateTime(JOINED, 'uk', 'UTC')).toMatch(/^5 лист\. 2026\u00a0р\., 14:30$/);
    expect(formatDateTime(JOINED, 'de', 'UTC')).toBe('05.11.2026, 14:30');
    expect(formatDateTime(JOINED, 'en', 'UTC')).toMatch(/^Nov 5, 2026, 2:30\sPM$/);
    expect(formatDateTime(JOINED, 'kk', 'UTC')).toMatch(/2026.*14:30$/);
    expect(formatDateTime(JOINED, 'az', 'UTC')).toMatch(/^5 noy 2026,? 14:30$/);
  });

  it('says how long ago with the plural forms of each language', () => {
    const now = new Date(JOINED).getTime();
    const daysAgo = (days: number, language: string) =>
      formatRelative(new Date(now - days * 86400_000).toISOString(), now, language);
    expect([2, 5, 21].map((days) => daysAgo(days, 'ru'))).toEqual([
      'позавчера',
      '5 дней назад',
      '3 недели назад',
    ]);
    expect(daysAgo(3, 'ru')).toBe('3 дня назад');
    expect(daysAgo(3, 'uk')).toBe('3 дні тому');
    expect(daysAgo(5, 'uk')).toBe('5 днів тому');
    expect(daysAgo(5, 'de')).toBe('vor 5 Tagen');
    expect(daysAgo(5, 'kk')).toBe('5 күн бұрын');
    expect(daysAgo(5, 'az')).toBe('5 gün öncə');
    expect(daysAgo(1, 'en')).toBe('yesterday');
  });

  it('says how long ago in all six languages, "now" under a minute and for a moment ahead of the clock', () => {
    const now = Date.parse('2026-03-10T12:00:00Z');
    const ago = (iso: string) => LANGUAGES.map((language) => formatRelative(iso, now, language));
    expect(ago('2026-03-10T11:55:00Z')).toEqual([
      '5 minutes ago',
      '5 минут назад',
      'vor 5 Minuten',
      '5 хвилин тому',
      '5 минут бұрын',
      '5 dəqiqə öncə',
    ]);
    expect(ago('2026-03-10T09:00:00Z')).toEqual([
      '3 hours ago',
      '3 часа назад',
      'vor 3 Stunden',
      '3 години тому',
      '3 сағат бұрын',
      '3 saat öncə',
    ]);
    expect(ago('2026-03-09T12:00:00Z')).toEqual(['yesterday', 'вчера', 'gestern', 'учора', 'кеше', 'dünən']);
    expect(ago('2026-03-10T11:59:30Z')[0]).toBe('now');
    expect(ago('2026-03-10T12:00:20Z')[0]).toBe('now');
    for (const text of [...ago('2026-03-10T11:55:00Z'), ...ago('2026-03-10T12:00:20Z')]) {
      expect(text).not.toMatch(/^[-+]|\bmin\b/);
    }
  });
});

const LANGUAGES = ['en', 'ru', 'de', 'uk', 'kk', 'az'] as const;

describe('dates in a runtime without Kazakh and Azerbaijani data', () => {
  const RealDateTimeFormat = Intl.DateTimeFormat;
  const RealNumberFormat = Intl.NumberFormat;

  /**
   * Stands in for Debian's Chromium: for kk and az the formatters fall back to the root data, which
   * writes the month as a number ("2026 M11 5") and numbers with the root separators ("$ 0.00").
   */
  function withoutKazakhAndAzerbaijani() {
    const isMissing = (locales?: string | readonly string[]) =>
      [locales ?? []].flat().some((locale) => /^(kk|az)\b/.test(locale));
    class RootDateTimeFormat extends RealDateTimeFormat {
      constructor(locales?: string | string[], options?: Intl.DateTimeFormatOptions) {
        const missing = isMissing(locales);
        super(
          missing ? 'en-US' : locales,
          missing && options?.month && options.month !== 'numeric'
            ? { ...options, month: 'numeric' }
            : missing && options?.dateStyle
              ? { ...options, dateStyle: 'short' }
              : options,
        );
      }
    }
    class RootNumberFormat extends RealNumberFormat {
      constructor(locales?: string | string[], options?: Intl.NumberFormatOptions) {
        super(isMissing(locales) ? 'en-US' : locales, options);
      }
    }
    vi.stubGlobal('Intl', { ...Intl, DateTimeFormat: RootDateTimeFormat, NumberFormat: RootNumberFormat });
    resetLocaleDataCache();
  }

  afterEach(() => {
    vi.unstubAllGlobals();
    resetLocaleDataCache();
  });

  it('names a chart month in kk and az by its short name, never "M11"', () => {
    withoutKazakhAndAzerbaijani();
    expect(formatMonthShort('2026-11-01T00:00:00Z', 'kk', 'UTC')).toBe('қар.');
    expect(formatMonthShort('2026-01-01T00:00:00Z', 'az', 'UTC')).toBe('yan');
    expect(formatMonthShort('2026-11-01T00:00:00Z', 'en', 'UTC')).toBe('Nov');
  });

  it('words kk and az days with month names, never a numeric month', () => {
    withoutKazakhAndAzerbaijani();
    expect(formatDay('2026-11-24T12:00:00Z', 'kk', 'UTC')).toBe('2026\u00a0ж. 24 қараша');
    expect(formatDay('2026-11-24T12:00:00Z', 'az', 'UTC')).toBe('24 noyabr 2026');
    expect(formatDay('2026-01-02T12:00:00Z', 'az', 'UTC')).toBe('2 yanvar 2026');
    expect(formatDateTime(JOINED, 'kk', 'UTC')).toBe('2026\u00a0ж. 5 қар., 14:30');
    expect(formatDateTime(JOINED, 'az', 'UTC')).toBe('5 noy 2026, 14:30');
    // The day is the reader's own: late on the 5th in UTC is already the 6th in Baku.
    expect(formatDay('2026-11-05T22:30:00Z', 'az', 'Asia/Baku')).toBe('6 noyabr 2026');
  });

  it('keeps the languages the runtime knows on its own data', () => {
    withoutKazakhAndAzerbaijani();
    expect(formatDay(JOINED, 'de', 'UTC')).toBe('5. November 2026');
    expect(formatDay(JOINED, 'ru', 'UTC')).toBe('5 ноября 2026\u00a0г.');
  });

  it('writes kk and az money with their own separators and the sign after', () => {
    withoutKazakhAndAzerbaijani();
    const dollars = (language: string) =>
      numberFormat(language, { style: 'currency', currency: 'USD' }).format(1234.5);
    expect(dollars('kk')).toMatch(/^1\s234,50\s\$$/);
    expect(dollars('az')).toMatch(/^1\.234,50\s\$$/);
    expect(dollars('en')).toBe('$1,234.50');
  });

  it('words kk and az relative times where the runtime writes "-5 min"', () => {
    const RealRelativeTimeFormat = Intl.RelativeTimeFormat;
    // Debian's Chromium answers kk and az from the root data.
    class RootRelativeTimeFormat extends RealRelativeTimeFormat {
      constructor(locales?: string | string[], options?: Intl.RelativeTimeFormatOptions) {
        super([locales ?? []].flat().some((l) => /^(kk|az)\b/.test(l)) ? 'und' : locales, options);
      }
    }
    vi.stubGlobal('Intl', { ...Intl, RelativeTimeFormat: RootRelativeTimeFormat });
    resetLocaleDataCache();
    const now = Date.parse('2026-03-10T12:00:00Z');
    const ago = (iso: string, language: string) => formatRelative(iso, now, language);
    expect(ago('2026-03-10T11:55:00Z', 'kk')).toBe('5 минут бұрын');
    expect(ago('2026-03-10T11:55:00Z', 'az')).toBe('5 dəqiqə öncə');
    expect(ago('2026-03-10T09:00:00Z', 'kk')).toBe('3 сағат бұрын');
    expect(ago('2026-03-09T12:00:00Z', 'kk')).toBe('кеше');
    expect(ago('2026-03-09T12:00:00Z', 'az')).toBe('dünən');
    expect(ago('2026-02-20T12:00:00Z', 'az')).toBe('2 həftə öncə');
    expect(ago('2026-03-10T11:59:50Z', 'kk')).toBe('қазір');
    expect(ago('2026-03-10T11:59:50Z', 'az')).toBe('indi');
    // What the runtime knows stays its own.
    expect(ago('2026-03-10T11:55:00Z', 'ru')).toBe('5 минут назад');
  });

  it('joins the year and its abbreviation with a no-break space (ru, uk)', () => {
    expect(formatDay(JOINED, 'ru', 'UTC')).toBe('5 ноября 2026\u00a0г.');
    expect(formatDay(JOINED, 'uk', 'UTC')).toBe('5 листопада 2026\u00a0р.');
  });
});
