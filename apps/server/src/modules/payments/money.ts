import { ISO_ALPHA } from '../../shared/money-format.js';

export { currencyAlpha, formatMoney } from '../../shared/money-format.js';

/** Minor units as a decimal string with two places: 99000 → "990.00". */
export function minorToDecimal(amount: number): string {
  const sign = amount < 0 ? '-' : '';
  const abs = Math.abs(amount);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** A decimal amount string as minor units, without floating point: "990.00" → 99000; NaN if malformed. */
export function decimalToMinor(value: string): number {
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(value.trim());
  if (!match) return Number.NaN;
  const minor = Number(match[2]) * 100 + Number((match[3] ?? '').padEnd(2, '0'));
  return match[1] ? -minor : minor;
}

/** The numeric id of an alphabetic code (any case); NaN when Mirra does not sell in it. */
export function currencyNumeric(alpha: string): number {
  const upper = alpha.toUpperCase();
  for (const [numeric, code] of Object.entries(ISO_ALPHA)) if (code === upper) return Number(numeric);
  return Number.NaN;
}
