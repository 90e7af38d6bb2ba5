import { lacksLocaleData, wordDateTime, wordDay, wordMonthShort } from './locale-fallback';

/**
 * A year and its abbreviation ("2026 г.", "2026 р.") stay on one line: the space between them is
 * a no-break space.
 */
function keepYearTogether(text: string): string {
  return text.replace(/(\d) (г\.|р\.|ж\.)/g, '$1\u00a0$2');
}

/**
 * Dates as the screens show them, in the reader's language. A day is always written with its day
 * of the month: a month on its own is in the nominative in Russian and Ukrainian ("ноябрь"), which
 * reads wrong after a preposition ("с ноябрь"); with the day, Intl gives the genitive a phrase
 * needs ("с 5 ноября 2026 г.", "з 5 листопада 2026 р."). `timeZone` is for tests; screens use the
 * reader's own. A runtime without data for the language words the date itself.
 */
export function formatDay(iso: string, language: string, timeZone?: string): string {
  if (lacksLocaleData(language)) return wordDay(new Date(iso), language, timeZone);
  return keepYearTogether(
    new Intl.DateTimeFormat(language, {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone,
    }).format(new Date(iso)),
  );
}

/** A moment: the day and the time, short ("5 нояб. 2026 г., 14:30"). */
export function formatDateTime(iso: string, language: string, timeZone?: string): string {
  if (lacksLocaleData(language)) return wordDateTime(new Date(iso), language, timeZone);
  return keepYearTogether(
    new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(
      new Date(iso),
    ),
  );
}

/** A month on its own, short, as a chart's axis labels it ("нояб.", "Nov"). */
export function formatMonthShort(iso: string, language: string, timeZone?: string): string {
  if (lacksLocaleData(language)) return wordMonthShort(new Date(iso), language, timeZone);
  return new Intl.DateTimeFormat(language, { month: 'short', timeZone }).format(new Date(iso));
}
