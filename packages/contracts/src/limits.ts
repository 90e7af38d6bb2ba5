/** Interface languages; the first is the fallback. */
export const LANGUAGES = ['en', 'ru', 'de', 'uk', 'kk', 'az'] as const;
export type TLanguage = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: TLanguage = 'en';

export function isLanguage(value: unknown): value is TLanguage {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** Picks the best supported language from an Accept-Language header or a bare code like `ru-RU`. */
export function pickLanguage(header: string | null | undefined): TLanguage {
  if (!header) return DEFAULT_LANGUAGE;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { base: tag.toLowerCase().split('-')[0] ?? '', q: q ? Number(q.slice(2)) : 1, index };
    })
    .filter((entry) => entry.base && !Number.isNaN(entry.q) && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return ranked.map((entry) => entry.base).find(isLanguage) ?? DEFAULT_LANGUAGE;
}

/** Access tokens are refreshed by the client when they expire in under this many seconds. */
export const ACCESS_REFRESH_THRESHOLD_SECONDS = 60;
/** The client polls the Telegram sign-in token this often. */
export const TELEGRAM_POLL_INTERVAL_MS = 1000;
/** Minimum photos for a digital model. */
export const MODEL_MIN_PHOTOS = 15;
/** The default wallet currency: ISO 4217 numeric id of the rouble. */
export const DEFAULT_WALLET_CURRENCY_ID = 643;
