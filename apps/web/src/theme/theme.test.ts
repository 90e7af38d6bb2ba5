import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  applyTheme,
  readThemeSetting,
  resolveTheme,
  setHostScheme,
  setTheme,
  THEME_CHANGED_EVENT,
} from './theme';

function mockPrefersDark(initial: boolean) {
  const listeners = new Set<(event: MediaQueryListEvent) => void>();
  const query = {
    matches: initial,
    addEventListener: (_: string, fn: (event: MediaQueryListEvent) => void) => listeners.add(fn),
    removeEventListener: (_: string, fn: (event: MediaQueryListEvent) => void) => listeners.delete(fn),
  };
  vi.stubGlobal('matchMedia', () => query);
  window.matchMedia = (() => query) as unknown as typeof window.matchMedia;
  return {
    set(dark: boolean) {
      query.matches = dark;
      listeners.forEach((fn) => fn({ matches: dark } as MediaQueryListEvent));
    },
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
  setHostScheme(null);
});

describe('themes', () => {
  it('defaults to dark', () => {
    expect(readThemeSetting()).toBe('dark');
  });

  it('resolves system by the OS preference', () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
  });

  it('stores the choice in the theme cookie and dispatches theme-changed', () => {
    mockPrefersDark(true);
    const seen: unknown[] = [];
    const listener = (event: Event) => seen.push((event as CustomEvent).detail);
    window.addEventListener(THEME_CHANGED_EVENT, listener);
    setTheme('light');
    window.removeEventListener(THEME_CHANGED_EVENT, listener);
    expect(document.cookie).toContain('theme=light');
    expect(readThemeSetting()).toBe('light');
    expect(document.documentElement.dataset.theme).toBe('light');
    expect(seen).toEqual([{ theme: 'light', resolved: 'light' }]);
  });

  it('follows the OS live while on system, and stops when another theme is chosen', () => {
    const os = mockPrefersDark(false);
    applyTheme('system');
    expect(document.documentElement.dataset.theme).toBe('light');
    os.set(true);
    expect(document.documentElement.dataset.theme).toBe('dark');
    applyTheme('light');
    os.set(true);
    expect(document.documentElement.dataset.theme).toBe('light');
  });

  it('lets the host (Telegram) dictate the scheme', () => {
    mockPrefersDark(true);
    applyTheme('dark');
    setHostScheme('light');
    expect(document.documentElement.dataset.theme).toBe('light');
  });
});
