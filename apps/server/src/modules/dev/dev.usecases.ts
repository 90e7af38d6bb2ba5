import { sign } from '@telegram-apps/init-data-node';
import type { DevDeps } from './dev.deps.js';
import { telegramUnavailable } from '../telegram/index.js';

export interface DevTelegramUser {
  userId: number;
  firstName: string;
  lastName?: string;
  username?: string;
  language?: string;
  startParam?: string;
  allowsWrite?: boolean;
}

/**
 * Init data as Telegram would hand it to the Mini App, signed with this server's bot token, so the
 * web app's dev mode (`?tg_dev=1`) runs exactly the code paths it runs inside Telegram.
 */
export function signDevInitData(deps: DevDeps, user: DevTelegramUser): string {
  const { botToken } = deps.config.telegram;
  if (!botToken) throw telegramUnavailable();
  return sign(
    {
      user: {
        id: user.userId,
        first_name: user.firstName,
        ...(user.lastName ? { last_name: user.lastName } : {}),
        ...(user.username ? { username: user.username } : {}),
        ...(user.language ? { language_code: user.language } : {}),
        allows_write_to_pm: user.allowsWrite ?? false,
      },
      ...(user.startParam ? { start_param: user.startParam } : {}),
      chat_instance: '-1',
      chat_type: 'sender',
    },
    botToken,
    deps.now(),
  );
}
