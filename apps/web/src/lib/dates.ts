/**
 * Dates as the screens show them, in the reader's language. A day is always written with its day
 * of the month: a month on its own is in the nominative in Russian and Ukrainian ("ноябрь"), which
 * reads wrong after a preposition ("с ноябрь"); with the day, Intl gives the genitive a phrase
 * needs ("с 5 ноября 2026 г.", "з 5 листопада 2026 р."). `timeZone` is for tests; screens use the
 * reader's own.
 */
export function formatDay(iso: string, language: string, timeZone?: string): string {
  return new Intl.DateTimeFormat(language, {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone,
  }).format(new Date(iso));
}

/** A moment: the day and the time, short ("5 нояб. 2026 г., 14:30"). */
export function formatDateTime(iso: string, language: string, timeZone?: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(
    new Date(iso),
  );
}
