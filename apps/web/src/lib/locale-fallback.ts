/**
 * Some browsers ship without date and number data for Kazakh and Azerbaijani (Debian's Chromium
 * prints "2026 M11 24" and "$ 0.00" for them). A language whose long month comes back as a number
 * has no data; its dates are then worded from the month names below and its numbers are written
 * with the separators of a language that uses the same ones.
 */
const MONTHS: Record<string, { long: string[]; short: string[] }> = {
  kk: {
    long: [
      'қаңтар',
      'ақпан',
      'наурыз',
      'сәуір',
      'мамыр',
      'маусым',
      'шілде',
      'тамыз',
      'қыркүйек',
      'қазан',
      'қараша',
      'желтоқсан',
    ],
    short: ['қаң.', 'ақп.', 'нау.', 'сәу.', 'мам.', 'мау.', 'шіл.', 'там.', 'қыр.', 'қаз.', 'қар.', 'жел.'],
  },
  az: {
    long: [
      'yanvar',
      'fevral',
      'mart',
      'aprel',
      'may',
      'iyun',
      'iyul',
      'avqust',
      'sentyabr',
      'oktyabr',
      'noyabr',
      'dekabr',
    ],
    short: ['yan', 'fev', 'mar', 'apr', 'may', 'iyn', 'iyl', 'avq', 'sen', 'okt', 'noy', 'dek'],
  },
};

/** Kazakh groups thousands with a space and Azerbaijani with a dot, both with a decimal comma, the currency sign after. */
const NUMBER_LOCALE_STAND_IN: Record<string, string> = { kk: 'ru', az: 'de' };

const missing = new Map<string, boolean>();

function baseLanguage(language: string): string {
  return language.toLowerCase().split(/[-_]/)[0] ?? language;
}

/** Whether the runtime lacks date data for a language we can word ourselves. */
export function lacksLocaleData(language: string): boolean {
  const base = baseLanguage(language);
  if (!(base in MONTHS)) return false;
  const known = missing.get(base);
  if (known !== undefined) return known;
  const month = new Intl.DateTimeFormat(base, { month: 'long', timeZone: 'UTC' })
    .formatToParts(new Date(Date.UTC(2026, 10, 15)))
    .find((part) => part.type === 'month')?.value;
  const lacks = !month || /\d/.test(month);
  missing.set(base, lacks);
  return lacks;
}

/** Forgets what was found out about the runtime (tests swap Intl). */
export function resetLocaleDataCache() {
  missing.clear();
  missingRelative.clear();
}

interface Moment {
  year: string;
  month: number;
  day: string;
  hour: string;
  minute: string;
}

function momentParts(date: Date, timeZone?: string): Moment {
  const parts = new Intl.DateTimeFormat('en-US', {
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    numberingSystem: 'latn',
    timeZone,
  }).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return {
    year: part('year'),
    month: Number(part('month')) - 1,
    day: part('day'),
    hour: part('hour'),
    minute: part('minute'),
  };
}

/** A day with the month in words: "2026 ж. 24 қараша", "24 noyabr 2026". */
export function wordDay(date: Date, language: string, timeZone?: string): string {
  const base = baseLanguage(language);
  const { year, month, day } = momentParts(date, timeZone);
  const name = MONTHS[base]!.long[month];
  return base === 'kk' ? `${year}\u00a0ж. ${day} ${name}` : `${day} ${name} ${year}`;
}

/** The short name of a date's month: "қар.", "noy". */
export function wordMonthShort(date: Date, language: string, timeZone?: string): string {
  return MONTHS[baseLanguage(language)]!.short[momentParts(date, timeZone).month]!;
}

/** A moment with the short month and the 24-hour time: "2026 ж. 24 қар., 14:30", "24 noy 2026, 14:30". */
export function wordDateTime(date: Date, language: string, timeZone?: string): string {
  const base = baseLanguage(language);
  const { year, month, day, hour, minute } = momentParts(date, timeZone);
  const name = MONTHS[base]!.short[month];
  const dayText = base === 'kk' ? `${year}\u00a0ж. ${day} ${name}` : `${day} ${name} ${year}`;
  return `${dayText}, ${hour}:${minute}`;
}

/** A number formatter for the language, standing in a language with the same separators when data is missing. */
export function numberFormat(language: string, options?: Intl.NumberFormatOptions): Intl.NumberFormat {
  const base = baseLanguage(language);
  const locale = lacksLocaleData(language) ? (NUMBER_LOCALE_STAND_IN[base] ?? language) : language;
  return new Intl.NumberFormat(locale, options);
}

/** Past moments in words: the unit's name, the words for the last one, and how "ago" attaches. */
const RELATIVE: Record<
  string,
  {
    now: string;
    ago: (amount: number, unit: string) => string;
    unit: Record<string, string>;
    last: Record<string, string>;
  }
> = {
  kk: {
    now: 'қазір',
    ago: (amount, unit) => `${amount} ${unit} бұрын`,
    unit: {
      second: 'секунд',
      minute: 'минут',
      hour: 'сағат',
      day: 'күн',
      week: 'апта',
      month: 'ай',
      year: 'жыл',
    },
    last: { day: 'кеше', week: 'өткен апта', month: 'өткен ай', year: 'былтырғы жыл' },
  },
  az: {
    now: 'indi',
    ago: (amount, unit) => `${amount} ${unit} öncə`,
    unit: {
      second: 'saniyə',
      minute: 'dəqiqə',
      hour: 'saat',
      day: 'gün',
      week: 'həftə',
      month: 'ay',
      year: 'il',
    },
    last: { day: 'dünən', week: 'keçən həftə', month: 'keçən ay', year: 'keçən il' },
  },
};

const missingRelative = new Map<string, boolean>();

/**
 * Whether the runtime lacks relative-time data for a language we can word ourselves: it answers
 * in the root locale ("-5 min") or another language.
 */
export function lacksRelativeTimeData(language: string): boolean {
  const base = baseLanguage(language);
  if (!(base in RELATIVE)) return false;
  const known = missingRelative.get(base);
  if (known !== undefined) return known;
  let lacks = true;
  try {
    const format = new Intl.RelativeTimeFormat(base);
    lacks =
      baseLanguage(format.resolvedOptions().locale) !== base ||
      /^[-+\u2212]/.test(format.format(-5, 'minute'));
  } catch {
    lacks = true;
  }
  missingRelative.set(base, lacks);
  return lacks;
}

/** A past amount of a unit in words ("5 минут бұрын", "dünən"); 0 is "now". */
export function wordRelative(amountAgo: number, unit: Intl.RelativeTimeFormatUnit, language: string): string {
  const words = RELATIVE[baseLanguage(language)]!;
  if (amountAgo <= 0) return words.now;
  const name = unit.replace(/s$/, '');
  if (amountAgo === 1 && words.last[name]) return words.last[name];
  return words.ago(amountAgo, words.unit[name] ?? name);
}
