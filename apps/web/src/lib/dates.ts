import {
  lacksLocaleData,
  lacksRelativeTimeData,
  wordDateTime,
  wordDay,
  wordMonthShort,
  wordRelative,
} from './locale-fallback';

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

const RELATIVE_UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 86400],
  ['month', 30 * 86400],
  ['week', 7 * 86400],
  ['day', 86400],
  ['hour', 3600],
  ['minute', 60],
];

/**
 * How long ago a moment was ("5 minutes ago", "yesterday", "now" under a minute), in the reader's
 * language. A moment ahead of the clock (a server a little ahead) reads "now". A runtime without
 * relative-time data for Kazakh or Azerbaijani writes "-5 min"; those are then worded here.
 */
export function formatRelative(iso: string, nowMs: number, language: string): string {
  const seconds = Math.min(0, Math.round((new Date(iso).getTime() - nowMs) / 1000));
  const found = RELATIVE_UNITS.find(([, size]) => -seconds >= size);
  const [unit, amount] = found ? [found[0], Math.trunc(seconds / found[1])] : (['second', 0] as const);
  if (lacksRelativeTimeData(language)) return wordRelative(-amount, unit, language);
  return new Intl.RelativeTimeFormat(language, { numeric: 'auto' }).format(amount, unit);
}
