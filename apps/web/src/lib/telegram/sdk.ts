/**
 * Everything that talks to the Telegram Mini Apps SDK. This module is its own chunk, loaded only
 * when the app was launched inside Telegram (or in the dev mode).
 */
import {
  backButton,
  downloadFile,
  init,
  invoice,
  miniApp,
  requestWriteAccess,
  retrieveLaunchParams,
  retrieveRawInitData,
  shareURL,
  swipeBehavior,
  themeParams,
  viewport,
} from '@telegram-apps/sdk-react';
import { setHostScheme } from '../../theme/theme';
import { telegramStartupPlan, type TelegramStartupPlan } from './startup-plan';

export interface TelegramLaunch {
  initData: string;
  startParam: string | null;
  version: string;
  platform: string;
  languageCode: string | null;
  plan: TelegramStartupPlan;
}

function safely(label: string, action: () => unknown): void {
  try {
    const result = action();
    if (result instanceof Promise) {
      result.catch((error: unknown) => console.warn(`Telegram: ${label} failed`, error));
    }
  } catch (error) {
    console.warn(`Telegram: ${label} failed`, error);
  }
}

/**
 * Initialises the SDK and applies the start-up plan: expand, swipes off (7.7+), fullscreen (8.0+),
 * write access (6.9+), theme variables. Returns the raw init data for the `TG` Authorization header.
 */
export function startTelegram(): TelegramLaunch {
  init();
  const launch = retrieveLaunchParams();
  const initData = retrieveRawInitData() ?? '';
  const version = String(launch.tgWebAppVersion);
  const user = launch.tgWebAppData?.user;
  const plan = telegramStartupPlan(version, { allowsWrite: user?.allows_write_to_pm === true });

  safely('back button', () => backButton.mount.ifAvailable());
  safely('theme', () => {
    themeParams.mountSync.ifAvailable();
    themeParams.bindCssVars.ifAvailable();
    const paint = () => setHostScheme(themeParams.isDark() ? 'dark' : 'light');
    paint();
    themeParams.state.sub(paint);
  });
  safely('mini app', () => miniApp.mountSync.ifAvailable());

  if (plan.expand) safely('expand', () => viewport.expand.ifAvailable());
  if (plan.disableVerticalSwipes) {
    safely('swipes', () => {
      swipeBehavior.mount.ifAvailable();
      swipeBehavior.disableVertical.ifAvailable();
    });
  }
  // Fullscreen needs the mounted viewport, which waits for the client's answers; never block on it.
  safely('viewport', async () => {
    if (!viewport.mount.isAvailable()) return;
    await viewport.mount({ timeout: 3000 });
    viewport.bindCssVars.ifAvailable();
    if (plan.requestFullscreen && viewport.requestFullscreen.isAvailable()) {
      await viewport.requestFullscreen();
    }
  });
  if (plan.requestWriteAccess) {
    safely('write access', () => (requestWriteAccess.isAvailable() ? requestWriteAccess() : undefined));
  }

  return {
    initData,
    startParam: launch.tgWebAppStartParam ?? launch.tgWebAppData?.start_param ?? null,
    version,
    platform: String(launch.tgWebAppPlatform),
    languageCode: user?.language_code ?? null,
    plan,
  };
}

interface HistoryRouter {
  subscribe(listener: () => void): () => void;
  navigate(delta: number): unknown;
}

/** What is open over the page (sheets): the top one's close, and a listener for changes. */
export interface BackOverlays {
  top(): (() => void) | undefined;
  subscribe(listener: () => void): () => void;
}

/**
 * Telegram's back button mirrors the browser history, and closes a sheet open over the page first
 * (as Telegram's own Mini Apps do): shown when there is a sheet to close or a page to go back to.
 */
export function bindBackButton(router: HistoryRouter, overlays: BackOverlays): void {
  if (!backButton.isMounted()) return;
  const sync = () => {
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0 || overlays.top()) backButton.show.ifAvailable();
    else backButton.hide.ifAvailable();
  };
  backButton.onClick(() => {
    const close = overlays.top();
    if (close) close();
    else void router.navigate(-1);
  });
  router.subscribe(sync);
  overlays.subscribe(sync);
  sync();
}

/** Telegram's own share sheet (a chat picker with the link); false where the client lacks it. */
export function shareLink(url: string, text: string): boolean {
  if (!shareURL.isAvailable()) return false;
  shareURL(url, text);
  return true;
}

/**
 * Telegram's download prompt (clients from 8.0): a plain download link does nothing in many
 * Telegram web views. False where unavailable; rejects when the user refuses.
 */
export async function downloadLink(url: string, fileName: string): Promise<boolean> {
  if (!downloadFile.isAvailable()) return false;
  await downloadFile(url, fileName);
  return true;
}

/**
 * Opens a Telegram Stars invoice link in the client's own payment sheet; resolves with how it was
 * closed (`paid`, `cancelled`, `failed`, `pending`), or null where the client cannot.
 */
export async function openInvoiceLink(url: string): Promise<string | null> {
  if (!invoice.open.isAvailable()) return null;
  return invoice.open(url, 'url');
}
