import { api } from '../lib/api-client';
import { routes } from '@mirra/contracts';
import { initTheme } from '../lib/app-store';
import { detectLanguage, initI18n, storedLanguage } from '../lib/i18n';
import { setTelegramInitData } from '../lib/session';
import {
  saveCampaignParams,
  saveReferralParam,
  saveTimezone,
  STORAGE_KEYS,
  writeStored,
} from '../lib/storage';
import { welcomePath } from '../lib/return-path';
import { applyStartParam, bootTelegram } from '../lib/telegram';
import { isNewMiniAppAccount } from '../lib/telegram/first-sign-in';
import { PRELOAD_ERROR_EVENT } from './route-table';

/**
 * A `token` query parameter on load is a refresh token: stored, and removed from the
 * address bar so it is not bookmarked or shared.
 */
export function takeTokenParam(href: string): { token: string | null; cleanUrl: string } {
  const url = new URL(href);
  const token = url.searchParams.get('token');
  if (token === null) return { token: null, cleanUrl: href };
  url.searchParams.delete('token');
  return { token: token.trim() || null, cleanUrl: url.pathname + url.search + url.hash };
}

/** Everything that must happen before the first render, in order. */
export async function boot(): Promise<{ i18n: Awaited<ReturnType<typeof initI18n>> } | null> {
  const { token, cleanUrl } = takeTokenParam(window.location.href);
  if (cleanUrl !== window.location.href) {
    if (token) {
      writeStored(STORAGE_KEYS.refresh, token);
      writeStored(STORAGE_KEYS.access, null);
    }
    window.history.replaceState(window.history.state, '', cleanUrl);
  }
  saveCampaignParams(window.location);
  saveReferralParam(window.location);
  saveTimezone();
  initTheme();
  // Vite reports a failed chunk preload with its own event; the app listens for one name only.
  window.addEventListener('vite:preloadError', (event) => {
    window.dispatchEvent(
      new CustomEvent(PRELOAD_ERROR_EVENT, { detail: (event as unknown as { payload?: unknown }).payload }),
    );
  });

  const launch = await bootTelegram();
  setTelegramInitData(launch?.initData ?? null);
  const language = detectLanguage(
    storedLanguage(),
    navigator.languages ?? [navigator.language],
    launch?.languageCode,
  );
  const [i18n, start] = await Promise.all([
    initI18n(language),
    launch
      ? applyStartParam(launch.startParam, (id) => api(routes.qs.get, { query: { id } }))
      : Promise.resolve(null),
  ]);
  if (start === 'reloading') return null;
  if (start) window.history.replaceState(null, '', start.path);
  // A Mini App launch that made the account opens the onboarding, which goes on to the address
  // Telegram opened. Asked before the first render: no other signed request may make it first.
  if (
    launch &&
    (await isNewMiniAppAccount(launch.initData, (init_data) =>
      api(routes.telegram.signIn, { body: { init_data } }),
    ))
  ) {
    const { pathname, search, hash } = window.location;
    window.history.replaceState(null, '', `${welcomePath(`${pathname}${search}`)}${hash}`);
  }
  return { i18n };
}
