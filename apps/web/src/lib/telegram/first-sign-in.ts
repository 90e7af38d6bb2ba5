import { readStored, STORAGE_KEYS, writeStored } from '../storage';

/** The Telegram user id inside raw init data (`user` is JSON), or null when it has none. */
export function telegramUserIdOf(initData: string): string | null {
  try {
    const user = JSON.parse(new URLSearchParams(initData).get('user') ?? 'null') as { id?: unknown } | null;
    return typeof user?.id === 'number' ? String(user.id) : null;
  } catch {
    return null;
  }
}

/**
 * Inside the Mini App the init data authenticates every request, so no sign-in is needed; only
 * the exchange answers whether it made the account. It runs once per Telegram user on this device
 * (remembered after an answer), before the app makes any other signed request, so a new person's
 * account is made by it and the onboarding comes once. True when the account is new.
 */
export async function isNewMiniAppAccount(
  initData: string,
  exchange: (initData: string) => Promise<{ created: boolean }>,
): Promise<boolean> {
  const userId = telegramUserIdOf(initData);
  if (!userId || readStored(STORAGE_KEYS.telegramSignedIn) === userId) return false;
  try {
    // The session this answer opens is not kept: the init data stays the app's credential.
    const { created } = await exchange(initData);
    writeStored(STORAGE_KEYS.telegramSignedIn, userId);
    return created;
  } catch (error) {
    // No answer: the app runs on (the init data still signs its requests) and asks next launch.
    console.warn('Telegram: the first sign-in exchange failed.', error);
    return false;
  }
}
