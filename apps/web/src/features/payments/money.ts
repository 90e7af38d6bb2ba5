import { CURRENCY_XTR } from '@mirra/contracts';
import { numberFormat } from '../../lib/locale-fallback';

/** ISO 4217 numeric ids to the codes Intl knows. */
const CURRENCY_CODES: Record<number, string> = { 643: 'RUB', 840: 'USD' };

/**
 * An amount in minor units (kopecks, cents) in the language's number format, with its currency's
 * sign: "199,00 ₽" or "$2.99". Whole amounts drop the zero decimals. Telegram Stars (XTR) are a
 * currency of their own, counted whole: "650 ★" ("★ 650" where the sign leads), never dollars;
 * the star is a glyph every font has, unlike the emoji, which needs a colour-emoji font.
 */
export function formatMoney(amount: number, currency: number, language: string): string {
  if (currency === CURRENCY_XTR) {
    return numberFormat(language, {
      style: 'currency',
      currency: 'XTR',
      currencyDisplay: 'code',
      maximumFractionDigits: 0,
    })
      .formatToParts(amount)
      .map((part) => (part.type === 'currency' ? '★' : part.value))
      .join('');
  }
  const code = CURRENCY_CODES[currency] ?? 'USD';
  const major = amount / 100;
  return numberFormat(language, {
    style: 'currency',
    currency: code,
    currencyDisplay: 'narrowSymbol',
    minimumFractionDigits: Number.isInteger(major) ? 0 : 2,
    maximumFractionDigits: 2,
  }).format(major);
}

/** The app path and query to come back to, without a previous payment's marker. */
export function currentReturnPath(pathname: string, search: string): string {
  const params = new URLSearchParams(search);
  params.delete('payment');
  const query = params.toString();
  return `${pathname}${query ? `?${query}` : ''}`;
}

/** The currency's sign alone: ₽ for 643, $ for 840. */
export function currencySign(currency: number): string {
  return currency === 643 ? '₽' : '$';
}

/** Whole or decimal major units typed by a person ("1 500", "99,90") as minor units; null if not a number. */
export function parseMajorAmount(text: string): number | null {
  const cleaned = text.replace(/[\s\u00a0]/g, '').replace(',', '.');
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(cleaned)) return null;
  return Math.round(Number(cleaned) * 100);
}
