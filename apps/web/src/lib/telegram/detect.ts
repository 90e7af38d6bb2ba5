/**
 * Cheap checks that run before the Telegram SDK is downloaded: the SDK is a separate chunk that
 * only Mini App launches load, so the browser build stays small.
 */
export const TG_DEV_FLAG = 'tg_dev';
const DEV_SESSION_KEY = 'mirra/tg_dev';
/** Where the SDK keeps launch parameters once read, so a reload inside Telegram still finds them. */
const SDK_LAUNCH_PARAMS_KEY = 'tapps/launchParams';

function session(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

/** Whether the address or this tab's session carries Mini App launch parameters. */
export function hasTelegramLaunchParams(href: string, stored: string | null): boolean {
  if (/[#?&]tgWebApp(Data|Version|Platform)=/.test(href)) return true;
  return Boolean(stored && stored.includes('tgWebAppData'));
}

/**
 * The dev mode (`?tg_dev=1`): open the app as if inside Telegram with init data signed by the
 * server's bot token. Remembered for the tab, so navigation and reloads stay in the mode.
 */
export function wantsTelegramDevMode(search: string): boolean {
  const value = new URLSearchParams(search).get(TG_DEV_FLAG);
  const store = session();
  if (value === '0') {
    store?.removeItem(DEV_SESSION_KEY);
    return false;
  }
  if (value) {
    store?.setItem(DEV_SESSION_KEY, search);
    return true;
  }
  return Boolean(store?.getItem(DEV_SESSION_KEY));
}

/** The query the dev mode was started with (start parameter, version…), for a reload. */
export function telegramDevQuery(): string {
  return session()?.getItem(DEV_SESSION_KEY) ?? '';
}

export function isTelegramLaunch(location: Pick<Location, 'href' | 'search'>): boolean {
  return (
    hasTelegramLaunchParams(location.href, session()?.getItem(SDK_LAUNCH_PARAMS_KEY) ?? null) ||
    wantsTelegramDevMode(location.search)
  );
}

let insideTelegram = false;
let hostPlatform: string | null = null;

/** True once the app started as a Mini App; the rest of the app only ever asks this. */
export function isInTelegram(): boolean {
  return insideTelegram;
}

/**
 * Telegram's Android client hands a Mini App's file input one file at a time, whatever
 * `multiple` says: there the screens ask for one photo per pick and say why.
 */
export function picksOneFileAtATime(inTelegram: boolean, platform: string | null): boolean {
  return inTelegram && platform === 'android';
}

/** Whether this launch can only pick one file at a time (see `picksOneFileAtATime`). */
export function hasOneFilePicker(): boolean {
  return picksOneFileAtATime(insideTelegram, hostPlatform);
}

export function markInTelegram(value: boolean, platform: string | null = null): void {
  insideTelegram = value;
  hostPlatform = value ? platform : null;
  if (typeof document !== 'undefined') {
    if (value) document.documentElement.dataset.host = 'telegram';
    else delete document.documentElement.dataset.host;
  }
}
