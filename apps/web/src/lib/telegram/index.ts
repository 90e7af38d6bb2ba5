/**
 * The app's one door to Telegram. Outside a Mini App every function here is a cheap no-op, and the
 * SDK chunk is never downloaded.
 */
import type { TSavedQueryString } from '../api-types';
import { isTelegramLaunch, markInTelegram, telegramDevQuery, wantsTelegramDevMode } from './detect';
import { buildQsRedirect, hasAfterRedirectMarker, parseStartParam, profilePath } from './start-param';
import type {
  bindBackButton,
  downloadLink,
  openInvoiceLink,
  shareLink,
  startTelegram,
  TelegramLaunch,
} from './sdk';

export { hasOneFilePicker, isInTelegram } from './detect';
export type { TelegramLaunch };

let sdk: {
  startTelegram: typeof startTelegram;
  bindBackButton: typeof bindBackButton;
  shareLink: typeof shareLink;
  downloadLink: typeof downloadLink;
  openInvoiceLink: typeof openInvoiceLink;
} | null = null;

/**
 * Starts the Mini App side when launched inside Telegram: SDK init and the start-up plan. Returns
 * null in a plain browser, and on any failure (the app then runs as a web app).
 */
export async function bootTelegram(): Promise<TelegramLaunch | null> {
  if (!isTelegramLaunch(window.location)) {
    markInTelegram(false);
    return null;
  }
  try {
    if (wantsTelegramDevMode(window.location.search)) {
      const { mockTelegramFromServer } = await import('./dev-mock');
      await mockTelegramFromServer(telegramDevQuery());
    }
    sdk = await import('./sdk');
    const launch = sdk.startTelegram();
    markInTelegram(Boolean(launch.initData), launch.platform);
    return launch.initData ? launch : null;
  } catch (error) {
    console.warn('Telegram: starting as a Mini App failed; running as a web app.', error);
    markInTelegram(false);
    return null;
  }
}

/** Closes of the sheets open now, the top one last; Telegram's back button closes that one first. */
const openOverlays: Array<() => void> = [];
const overlayListeners = new Set<() => void>();

/**
 * While a sheet is open, Telegram's back button closes it instead of leaving the page. Returns the
 * release, called when the sheet has closed. Outside a Mini App nothing listens and it costs nothing.
 */
export function closeOnTelegramBack(close: () => void): () => void {
  openOverlays.push(close);
  overlayListeners.forEach((listener) => listener());
  return () => {
    const at = openOverlays.lastIndexOf(close);
    if (at >= 0) openOverlays.splice(at, 1);
    overlayListeners.forEach((listener) => listener());
  };
}

export function bindTelegramBackButton(router: Parameters<typeof bindBackButton>[0]): void {
  sdk?.bindBackButton(router, {
    top: () => openOverlays.at(-1),
    subscribe(listener) {
      overlayListeners.add(listener);
      return () => void overlayListeners.delete(listener);
    },
  });
}

/** Shares a link through Telegram (inside the Mini App); false outside it or where unsupported. */
export function shareInTelegram(url: string, text: string): boolean {
  try {
    return sdk?.shareLink(url, text) ?? false;
  } catch (error) {
    console.warn('Telegram: sharing failed', error);
    return false;
  }
}

/** Downloads through Telegram's prompt (inside the Mini App, 8.0+); false where it cannot. */
export async function downloadInTelegram(url: string, fileName: string): Promise<boolean> {
  return (await sdk?.downloadLink(url, fileName)) ?? false;
}

/**
 * Pays a Telegram Stars invoice inside the Mini App; how the client's payment sheet was closed
 * (`paid`, `cancelled`, `failed`, `pending`), or null outside the Mini App.
 */
export async function payInvoiceInTelegram(url: string): Promise<string | null> {
  return (await sdk?.openInvoiceLink(url)) ?? null;
}

const HANDLED_KEY = 'mirra/start-param-handled';

/**
 * Acts on the start parameter once per launch: `p_<token>` gives the path to open first; `qs_<id>`
 * fetches the saved query string and reloads the page with it (then resolves to 'reloading').
 */
export async function applyStartParam(
  startParam: string | null,
  fetchQs: (id: string) => Promise<TSavedQueryString>,
): Promise<{ path: string } | 'reloading' | null> {
  const action = parseStartParam(startParam);
  if (!action) return null;
  let handled: string | null = null;
  try {
    handled = sessionStorage.getItem(HANDLED_KEY);
    sessionStorage.setItem(HANDLED_KEY, startParam ?? '');
  } catch {
    // Without session storage the parameter is simply applied on every load.
  }
  if (handled === startParam) return null;
  if (action.type === 'profile') return { path: profilePath(action.token) };
  if (hasAfterRedirectMarker(window.location.search)) return null;
  try {
    const { qs } = await fetchQs(action.id);
    if (!qs) return null;
    window.location.replace(buildQsRedirect(window.location.href, qs));
    return 'reloading';
  } catch (error) {
    console.warn('Telegram: the saved query string could not be loaded.', error);
    return null;
  }
}
