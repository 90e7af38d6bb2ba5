import { sign } from '@telegram-apps/init-data-node';
import type { Page } from 'playwright-core';
import { callApi } from './accounts.js';
import { e2eEnv } from './env.js';

export interface TelegramTestUser {
  id: number;
  first_name: string;
  last_name?: string;
  username?: string;
  language_code?: string;
  allows_write_to_pm?: boolean;
}

let nextId = 7_100_000_000 + Math.floor(Math.random() * 1_000_000);

export function newTelegramUser(overrides: Partial<TelegramTestUser> = {}): TelegramTestUser {
  nextId += 1;
  return { id: nextId, first_name: 'Tanya', last_name: 'Mini', language_code: 'en', ...overrides };
}

/**
 * Init data as Telegram signs it, with the server's bot token. `signedAt` follows a server clock a
 * spec moved ahead (the server refuses init data older than its freshness window).
 */
export function signInitData(user: TelegramTestUser, startParam?: string, signedAt = new Date()): string {
  return sign(
    { user, chat_instance: '-1', chat_type: 'sender', ...(startParam ? { start_param: startParam } : {}) },
    e2eEnv.botToken,
    signedAt,
  );
}

/**
 * The Mini App's sign-in exchange made outside the browser, so the person's account exists before
 * the page opens, as for someone who used the app before: the first launch of a new account opens
 * the onboarding instead of the page asked for. `startParam` attributes it as a first launch would.
 */
export async function telegramAccountFor(user: TelegramTestUser, startParam?: string): Promise<void> {
  const response = await callApi<{ created: boolean }>('/api/auth/base/', {
    body: { init_data: signInitData(user, startParam) },
  });
  if (response.status !== 200 || !response.body.created) {
    throw new Error(`the Telegram account could not be made: ${response.status}`);
  }
}

const THEME = {
  bg_color: '#17212b',
  secondary_bg_color: '#232e3c',
  text_color: '#f5f5f5',
  hint_color: '#708499',
  link_color: '#6ab3f3',
  button_color: '#5288c1',
  button_text_color: '#ffffff',
};

/** The address Telegram opens: launch parameters in the hash, as the real clients pass them. */
export function miniAppUrl(
  pathname: string,
  options: { initData: string; version: string; startParam?: string; platform?: string },
): string {
  const params = new URLSearchParams({
    tgWebAppData: options.initData,
    tgWebAppVersion: options.version,
    tgWebAppPlatform: options.platform ?? 'tdesktop',
    tgWebAppThemeParams: JSON.stringify(THEME),
    ...(options.startParam ? { tgWebAppStartParam: options.startParam } : {}),
  });
  return `${new URL(pathname, e2eEnv.baseUrl).toString()}#${params.toString()}`;
}

export interface PostedEvent {
  method: string;
  params: unknown;
}

/**
 * Plays the Telegram client: records every Mini Apps method the page posts through
 * `window.TelegramWebviewProxy.postEvent` (how mobile clients receive them) and answers the
 * requests that expect an event back, as a real client does.
 */
export async function installTelegramHost(
  page: Page,
  options: { payer?: TelegramTestUser } = {},
): Promise<void> {
  // Telegram's payment sheet: the fake Bot API plays the payer paying the invoice (pre-checkout,
  // then successful_payment to the bot), and the client reports how the sheet closed.
  const payer = options.payer;
  if (payer) {
    await page.exposeFunction('__mirraPayInvoice', async (slug: string) => {
      const response = await fetch(`${e2eEnv.fakeTelegramUrl}/__fake__/pay-invoice`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ link: `https://t.me/$${slug}`, user: payer }),
      });
      return ((await response.json()) as { status: string }).status;
    });
  }
  await page.addInitScript(() => {
    type Receiver = { Telegram?: { WebView?: { receiveEvent?: (name: string, data: unknown) => void } } };
    const w = window as unknown as Window &
      Receiver & { __tgPosted: Array<{ method: string; params: unknown }> };
    w.__tgPosted = [];
    const emit = (name: string, data: unknown) =>
      setTimeout(() => w.Telegram?.WebView?.receiveEvent?.(name, data), 0);
    const insets = { top: 0, bottom: 0, left: 0, right: 0 };
    (w as unknown as { TelegramWebviewProxy: unknown }).TelegramWebviewProxy = {
      postEvent(method: string, data?: string) {
        w.__tgPosted.push({ method, params: data ? (JSON.parse(data) as unknown) : null });
        if (method === 'web_app_request_safe_area') emit('safe_area_changed', insets);
        if (method === 'web_app_request_content_safe_area') emit('content_safe_area_changed', insets);
        if (method === 'web_app_request_fullscreen') emit('fullscreen_changed', { is_fullscreen: true });
        if (method === 'web_app_request_write_access') emit('write_access_requested', { status: 'allowed' });
        if (method === 'web_app_open_invoice') {
          const { slug } = JSON.parse(data ?? '{}') as { slug: string };
          const pay = (w as unknown as { __mirraPayInvoice?: (slug: string) => Promise<string> })
            .__mirraPayInvoice;
          void (pay ? pay(slug) : Promise.resolve('cancelled')).then((status) =>
            emit('invoice_closed', { slug, status }),
          );
        }
        if (method === 'web_app_request_viewport') {
          emit('viewport_changed', {
            height: window.innerHeight,
            width: window.innerWidth,
            is_expanded: true,
            is_state_stable: true,
          });
        }
      },
    };
  });
}

export async function postedMethods(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    (window as unknown as { __tgPosted: Array<{ method: string }> }).__tgPosted.map((e) => e.method),
  );
}

/** Tells the fake Bot API that `user` pressed Start under the sign-in link's key. */
export async function pressStart(payload: string, user: TelegramTestUser): Promise<void> {
  const response = await fetch(`${e2eEnv.fakeTelegramUrl}/__fake__/press-start`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ payload, user }),
  });
  const body = (await response.json()) as { ok: boolean; delivery?: { status: number } };
  if (!body.ok || body.delivery?.status !== 200)
    throw new Error(`press-start failed: ${JSON.stringify(body)}`);
}

export async function botMessages(): Promise<Array<{ params: { chat_id: number; text: string } }>> {
  const response = await fetch(`${e2eEnv.fakeTelegramUrl}/__fake__/calls?method=sendMessage`);
  return ((await response.json()) as { calls: Array<{ params: { chat_id: number; text: string } }> }).calls;
}
