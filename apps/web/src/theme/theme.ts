import { readCookie, setCookie, THEME_COOKIE_DAYS } from '../lib/storage';

export const THEME_SETTINGS = ['system', 'light', 'dark'] as const;
export type ThemeSetting = (typeof THEME_SETTINGS)[number];
export type ResolvedTheme = 'light' | 'dark';
export const DEFAULT_THEME: ThemeSetting = 'dark';
export const THEME_COOKIE = 'theme';
export const THEME_CHANGED_EVENT = 'theme-changed';

export function isThemeSetting(value: unknown): value is ThemeSetting {
  return typeof value === 'string' && (THEME_SETTINGS as readonly string[]).includes(value);
}

export function readThemeSetting(): ThemeSetting {
  const value = readCookie(THEME_COOKIE);
  return isThemeSetting(value) ? value : DEFAULT_THEME;
}

export function resolveTheme(setting: ThemeSetting, prefersDark: boolean): ResolvedTheme {
  if (setting === 'system') return prefersDark ? 'dark' : 'light';
  return setting;
}

const darkQuery = () =>
  typeof window !== 'undefined' && window.matchMedia
    ? window.matchMedia('(prefers-color-scheme: dark)')
    : null;

/** Set by the host (Telegram) when it dictates the palette; the user's setting then waits. */
let hostScheme: ResolvedTheme | null = null;
let current: ThemeSetting = DEFAULT_THEME;
let stopWatching: (() => void) | null = null;

function paint() {
  const resolved = hostScheme ?? resolveTheme(current, darkQuery()?.matches ?? true);
  const root = document.documentElement;
  const changed = root.dataset.theme !== resolved || root.dataset.themeSetting !== current;
  root.dataset.theme = resolved;
  root.dataset.themeSetting = current;
  root.style.colorScheme = resolved;
  if (changed) {
    window.dispatchEvent(new CustomEvent(THEME_CHANGED_EVENT, { detail: { theme: current, resolved } }));
  }
}

/** Applies a theme; `system` follows the OS preference live until another theme is chosen. */
export function applyTheme(setting: ThemeSetting): void {
  current = setting;
  stopWatching?.();
  stopWatching = null;
  const query = darkQuery();
  if (setting === 'system' && query) {
    const onChange = () => paint();
    query.addEventListener('change', onChange);
    stopWatching = () => query.removeEventListener('change', onChange);
  }
  paint();
}

/** The user's choice: stored in the `theme` cookie for 365 days, applied at once. */
export function setTheme(setting: ThemeSetting): void {
  setCookie(THEME_COOKIE, setting, { days: THEME_COOKIE_DAYS });
  applyTheme(setting);
}

/** The host app's scheme (Telegram's colours); null returns control to the user's setting. */
export function setHostScheme(scheme: ResolvedTheme | null): void {
  hostScheme = scheme;
  paint();
}
