/**
 * Client storage: local keys `access`, `refresh`, `django_language`, `tgData`, `wallet_currency`; cookies
 * `theme` (365 days), `timezone`, the campaign parameters `utm_*` and the partner code `ref` (30 days,
 * parent domain).
 * The strings "null" and "undefined" count as missing: older clients wrote them by mistake.
 */
export const STORAGE_KEYS = {
  access: 'access',
  refresh: 'refresh',
  language: 'django_language',
  tgData: 'tgData',
  /** The Telegram user whose Mini App sign-in exchange this device made (it runs once per person). */
  telegramSignedIn: 'tg_signed_in',
  /** Where a person was when they signed up; their activation link signs them in and returns there. */
  activationReturn: 'activation_return',
  /** The wallet currency (ISO 4217 numeric id) last chosen: the wallet and partner screens show money in it. */
  walletCurrency: 'wallet_currency',
} as const;
export type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

export const THEME_COOKIE_DAYS = 365;
export const UTM_COOKIE_DAYS = 30;
export const UTM_PARAMS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content', 'utm_id'];

/** A stored value as the app sees it: empty, "null" and "undefined" are no value at all. */
export function cleanStoredValue(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const trimmed = value.trim();
  if (trimmed === '' || trimmed === 'null' || trimmed === 'undefined') return null;
  return value;
}

function local(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    // Storage can throw in sandboxed frames and some private modes.
    return null;
  }
}

export function readStored(key: StorageKey): string | null {
  return cleanStoredValue(local()?.getItem(key));
}

export function writeStored(key: StorageKey, value: string | null | undefined): void {
  const storage = local();
  if (!storage) return;
  const clean = cleanStoredValue(value);
  if (clean === null) storage.removeItem(key);
  else storage.setItem(key, clean);
}

/**
 * The cookie domain for values shared with sibling sites (`app.mirra.ai` → `.mirra.ai`); none for
 * localhost, IP addresses and two-label hosts, where the browser's default is already right.
 */
export function parentDomain(hostname: string): string | null {
  if (!hostname || hostname === 'localhost' || /^[\d.]+$/.test(hostname) || hostname.includes(':'))
    return null;
  const labels = hostname.split('.').filter(Boolean);
  if (labels.length < 3) return null;
  return `.${labels.slice(1).join('.')}`;
}

export interface CookieOptions {
  days?: number;
  domain?: string | null;
  /** Sent over https only; setCookie sets it whenever the page itself came over https. */
  secure?: boolean;
}

export function formatCookie(name: string, value: string, options: CookieOptions = {}): string {
  const parts = [`${encodeURIComponent(name)}=${encodeURIComponent(value)}`, 'path=/', 'SameSite=Lax'];
  if (options.days !== undefined) parts.push(`max-age=${Math.round(options.days * 86400)}`);
  if (options.domain) parts.push(`domain=${options.domain}`);
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}

export function setCookie(name: string, value: string, options: CookieOptions = {}): void {
  if (typeof document === 'undefined') return;
  const secure = options.secure ?? window.location.protocol === 'https:';
  document.cookie = formatCookie(name, value, { ...options, secure });
}

export function readCookie(
  name: string,
  cookieString = typeof document === 'undefined' ? '' : document.cookie,
) {
  for (const part of cookieString.split(';')) {
    const [rawKey, ...rest] = part.trim().split('=');
    if (rawKey && decodeURIComponent(rawKey) === name)
      return cleanStoredValue(decodeURIComponent(rest.join('=')));
  }
  return null;
}

/** Campaign parameters of a landing URL, in UTM_PARAMS order. */
export function pickUtmParams(search: string): Array<[string, string]> {
  const params = new URLSearchParams(search);
  return UTM_PARAMS.flatMap((key) => {
    const value = params.get(key);
    return value ? [[key, value] as [string, string]] : [];
  });
}

/** Saves `utm_*` from the address into 30-day cookies on the parent domain. */
export function saveCampaignParams(location: Pick<Location, 'search' | 'hostname'>): void {
  const domain = parentDomain(location.hostname);
  for (const [key, value] of pickUtmParams(location.search)) {
    setCookie(key, value, { days: UTM_COOKIE_DAYS, domain });
  }
}

/** The cookie the server reads to attribute a new account to a partner (any sign-in method). */
export const REFERRAL_COOKIE = 'ref';
export const REFERRAL_COOKIE_DAYS = 30;

/**
 * Saves the partner code of a reflink (`?ref=<code>`) into a 30-day cookie on the parent domain, so
 * an account created later — by email, Google or Telegram — is attributed to the partner whose link
 * was followed last.
 */
export function saveReferralParam(location: Pick<Location, 'search' | 'hostname'>): void {
  const code = new URLSearchParams(location.search).get('ref')?.trim() ?? '';
  if (!/^[A-Za-z0-9]{4,32}$/.test(code)) return;
  setCookie(REFERRAL_COOKIE, code.toLowerCase(), {
    days: REFERRAL_COOKIE_DAYS,
    domain: parentDomain(location.hostname),
  });
}

/**
 * The `timezone` cookie: the browser's getTimezoneOffset(), minutes to add to local time to get UTC
 * (Moscow = -180), as the server reads it to reset daily limits at the user's local midnight.
 */
export function timezoneOffsetMinutes(date: Pick<Date, 'getTimezoneOffset'> = new Date()): number {
  return date.getTimezoneOffset();
}

export function saveTimezone(): void {
  setCookie('timezone', String(timezoneOffsetMinutes()), { days: 365 });
}
