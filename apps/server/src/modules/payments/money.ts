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

const ISO_ALPHA: Record<number, string> = { 643: 'RUB', 840: 'USD' };

/** ISO 4217 alphabetic code of a numeric id Mirra sells in (RUB, USD). */
export function currencyAlpha(currency: number): string {
  const alpha = ISO_ALPHA[currency];
  if (!alpha) throw new Error(`currency ${currency} is not sold in`);
  return alpha;
}

/** An amount in minor units as people read it in `language`: "$2.99", "199,00 ₽". */
export function formatMoney(amount: number, currency: number, language: string | null): string {
  return new Intl.NumberFormat(language ?? 'en', {
    style: 'currency',
    currency: currencyAlpha(currency),
  }).format(amount / 100);
}

/** The numeric id of an alphabetic code (any case); NaN when Mirra does not sell in it. */
export function currencyNumeric(alpha: string): number {
  const upper = alpha.toUpperCase();
  for (const [numeric, code] of Object.entries(ISO_ALPHA)) if (code === upper) return Number(numeric);
  return Number.NaN;
}
