/**
 * Money as people read it. Shared so notices (the bot, emails) word amounts the same way payments do.
 */
export const ISO_ALPHA: Record<number, string> = { 643: 'RUB', 840: 'USD' };

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
