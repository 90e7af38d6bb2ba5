import { describe, expect, it } from 'vitest';
import { relativeTime } from '../features/notifications/notification-text';
import { createTestI18n } from '../test/i18n';
import { formatDateTime, formatDay } from './dates';

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
    expect(await since('kk')).toMatch(/^тіркелген күні: 2026 ж\. 5 қараша$/);
  });

  it('never shows a month on its own in the nominative after a preposition', async () => {
    expect(await since('ru')).not.toMatch(/ноябрь/);
    expect(await since('uk')).not.toMatch(/листопад /);
  });

  it('writes a moment as day and time in each language’s own order', () => {
    expect(formatDateTime(JOINED, 'ru', 'UTC')).toMatch(/^5 нояб\. 2026 г\., 14:30$/);
    expect(formatDateTime(JOINED, 'uk', 'UTC')).toMatch(/^5 лист\. 2026 р\., 14:30$/);
    expect(formatDateTime(JOINED, 'de', 'UTC')).toBe('05.11.2026, 14:30');
    expect(formatDateTime(JOINED, 'en', 'UTC')).toMatch(/^Nov 5, 2026, 2:30\sPM$/);
    expect(formatDateTime(JOINED, 'kk', 'UTC')).toMatch(/2026.*14:30$/);
    expect(formatDateTime(JOINED, 'az', 'UTC')).toMatch(/^5 noy 2026,? 14:30$/);
  });

  it('says how long ago with the plural forms of each language', () => {
    const now = new Date(JOINED).getTime();
    const daysAgo = (days: number, language: string) =>
      relativeTime(new Date(now - days * 86400_000).toISOString(), now, language);
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
});
