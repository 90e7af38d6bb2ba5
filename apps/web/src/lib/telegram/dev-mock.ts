/**
 * The dev mode: the page pretends to be inside Telegram. The server's dev module signs init data
 * with the configured bot token; this file feeds it to the SDK and plays the Telegram client's
 * part, answering the app's requests the way a real client would.
 */
import { routePath, routes, type RouteReply } from '@mirra/contracts';
import { emitEvent, mockTelegramEnv } from '@telegram-apps/sdk-react';

type DevInitData = RouteReply<typeof routes.dev.telegramInitData>;

const DARK_THEME: Record<string, `#${string}`> = {
  bg_color: '#17212b',
  secondary_bg_color: '#232e3c',
  section_bg_color: '#17212b',
  text_color: '#f5f5f5',
  hint_color: '#708499',
  link_color: '#6ab3f3',
  button_color: '#5288c1',
  button_text_color: '#ffffff',
  accent_text_color: '#6ab2f2',
  destructive_text_color: '#ec3942',
  header_bg_color: '#17212b',
  subtitle_text_color: '#708499',
  section_separator_color: '#111921',
};

/** Every Mini Apps method the app posted, for people poking at the dev mode in devtools. */
declare global {
  interface Window {
    __mirraTelegramEvents?: Array<{ method: string; params: unknown }>;
  }
}

export async function mockTelegramFromServer(devQuery: string): Promise<void> {
  const params = new URLSearchParams(devQuery);
  const query = new URLSearchParams();
  for (const key of [
    'start_param',
    'version',
    'user_id',
    'first_name',
    'last_name',
    'username',
    'language',
  ]) {
    const value = params.get(key === 'version' ? 'tg_version' : key) ?? params.get(key);
    if (value) query.set(key, value);
  }
  const response = await fetch(`${routePath(routes.dev.telegramInitData)}?${query.toString()}`);
  if (!response.ok) throw new Error(`The dev Telegram mode is off on this server (HTTP ${response.status}).`);
  const dev = (await response.json()) as DevInitData;
  const events: Array<{ method: string; params: unknown }> = [];
  window.__mirraTelegramEvents = events;

  mockTelegramEnv({
    launchParams: {
      tgWebAppThemeParams: DARK_THEME,
      tgWebAppData: dev.init_data,
      tgWebAppVersion: dev.version,
      tgWebAppPlatform: dev.platform,
      ...(dev.start_param ? { tgWebAppStartParam: dev.start_param } : {}),
    },
    onEvent([method, payload]) {
      events.push({ method, params: payload });
      const answer = () => {
        switch (method) {
          case 'web_app_request_viewport':
            return emitEvent('viewport_changed', {
              height: window.innerHeight,
              width: window.innerWidth,
              is_expanded: true,
              is_state_stable: true,
            });
          case 'web_app_request_safe_area':
            return emitEvent('safe_area_changed', { top: 0, bottom: 0, left: 0, right: 0 });
          case 'web_app_request_content_safe_area':
            return emitEvent('content_safe_area_changed', { top: 0, bottom: 0, left: 0, right: 0 });
          case 'web_app_request_fullscreen':
            return emitEvent('fullscreen_changed', { is_fullscreen: true });
          case 'web_app_request_write_access':
            return emitEvent('write_access_requested', { status: 'allowed' });
          case 'web_app_request_theme':
            return emitEvent('theme_changed', { theme_params: DARK_THEME });
        }
      };
      setTimeout(answer, 0);
    },
  });
}
