const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/**
 * The recipient's profile uuid from what a person pasted: the uuid itself or a link to their
 * profile (`…/profile/<uuid>/`); null when there is none.
 */
export function recipientUuid(text: string): string | null {
  const match = UUID.exec(text.trim());
  return match ? match[0].toLowerCase() : null;
}

/** Whole or decimal major units typed by a person ("1 500", "99,90") as minor units; null if not a number. */
export function parseMoney(text: string): number | null {
  const cleaned = text.replace(/[\s\u00a0]/g, '').replace(',', '.');
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(cleaned)) return null;
  return Math.round(Number(cleaned) * 100);
}

/**
 * What `credits` cost in minor units when one major unit buys `rate` credits: rounded up to a
 * whole minor unit, as the server charges it.
 */
export function creditsPrice(credits: number, rate: number): number {
  return Math.ceil((credits * 100) / rate);
}

/** The most credits `available` minor units pay for at `rate` (none without a rate). */
export function creditsFor(available: number, rate: number): number {
  if (!(rate > 0) || available <= 0) return 0;
  let credits = Math.floor((available * rate) / 100);
  while (credits > 0 && creditsPrice(credits, rate) > available) credits -= 1;
  return credits;
}
