import { isLanguage } from '@mirra/contracts';
import type { TelegramDeps } from './telegram.deps.js';
import type { DbOrTx } from '../../shared/db/client.js';
import { accountBanned, AppError } from '../../shared/errors.js';
import { issueSession } from '../auth/index.js';
import { type UserRow, createUser, findUserByTelegramId, updateUser } from '../users/index.js';
import { checkInitData, type TelegramProfile } from './telegram.models.js';

export const telegramUnavailable = () =>
  new AppError({
    code: 'auth.telegram_unavailable',
    detail: 'Telegram sign-in is not configured on this server.',
  });

/**
 * Authenticates a Mini App request by its raw init data: the HMAC made with our bot token, and an
 * `auth_date` no older than TELEGRAM_INIT_DATA_MAX_AGE. Finds or creates the user by Telegram id
 * and keeps their Telegram profile and write permission current. A new account is attributed to the
 * signed `ref_<code>` start parameter, else to the partner link the browser kept (`referralCode`).
 */
export async function authenticateTelegramInitData(
  deps: TelegramDeps,
  initData: string,
  referralCode: string | null = null,
): Promise<UserRow> {
  return (await signInWithTelegramInitData(deps, initData, referralCode)).user;
}

/**
 * The Mini App's sign-in exchange: the init data's person (made on a first launch), their last
 * login and a new session written in one transaction, and whether this request made the account.
 */
export async function openTelegramSession(deps: TelegramDeps, initData: string, referralCode: string | null) {
  const { user, created } = await signInWithTelegramInitData(deps, initData, referralCode);
  const now = deps.now();
  const pair = await deps.db.transaction(async (tx) => {
    await updateUser(tx, user.id, now, { lastLogin: now });
    return issueSession(deps, tx, user.id);
  });
  return { ...pair, created };
}

/**
 * `authenticateTelegramInitData`, also saying whether this request made the account: the Mini
 * App's sign-in exchange answers it, so a new person sees the onboarding once.
 */
export async function signInWithTelegramInitData(
  deps: TelegramDeps,
  initData: string,
  referralCode: string | null = null,
): Promise<{ user: UserRow; created: boolean }> {
  const { botToken, initDataMaxAgeSeconds } = deps.config.telegram;
  if (!botToken) throw telegramUnavailable();
  const checked = checkInitData(initData, botToken, {
    now: deps.now(),
    maxAgeSeconds: initDataMaxAgeSeconds,
  });
  if (!checked.ok) {
    throw checked.reason === 'expired'
      ? new AppError({ code: 'auth.init_data_expired', detail: 'Telegram init data has expired.' })
      : new AppError({ code: 'auth.init_data_invalid', detail: 'Telegram init data is invalid.' });
  }
  if (!checked.user) {
    throw new AppError({ code: 'auth.init_data_invalid', detail: 'Telegram init data has no user.' });
  }
  const { user, created } = await findOrCreateTelegramUser(deps.db, deps.now(), checked.user, {
    welcomeCredits: deps.config.welcomeCredits,
    startParam: checked.startParam ?? undefined,
    referralCode,
    allowsWrite: checked.user.allows_write_to_pm,
  });
  if (user.bannedAt) throw accountBanned();
  // A deactivated account stays out, as it does for Bearer tokens.
  if (!user.isActive) {
    throw new AppError({ code: 'auth.invalid_credentials', detail: 'User is inactive.' });
  }
  return { user, created };
}

/**
 * The Mirra account of a Telegram user, created on first sight (active at once: Telegram vouched
 * for them). A `ref_<code>` start parameter on that first visit (or the referral code of the web
 * sign-in key the bot confirms) records the referer.
 */
export async function upsertTelegramUser(
  db: DbOrTx,
  now: Date,
  profile: TelegramProfile,
  options: TelegramUserOptions = {},
): Promise<UserRow> {
  return (await findOrCreateTelegramUser(db, now, profile, options)).user;
}

interface TelegramUserOptions {
  startParam?: string;
  referralCode?: string | null;
  allowsWrite?: boolean;
  welcomeCredits?: number;
}

/** `upsertTelegramUser`, with `created` when this call made the account. */
async function findOrCreateTelegramUser(
  db: DbOrTx,
  now: Date,
  profile: TelegramProfile,
  options: TelegramUserOptions,
): Promise<{ user: UserRow; created: boolean }> {
  const existing = await findUserByTelegramId(db, profile.id);
  // A bot message's `from` never has a photo, and Telegram leaves it out when privacy hides it:
  // absent means "unknown", so the last photo we saw is kept.
  const fromTelegram = {
    telegramUsername: profile.username ?? null,
    ...(profile.photo_url !== undefined ? { telegramPhotoUrl: profile.photo_url } : {}),
    ...(options.allowsWrite !== undefined ? { telegramAllowsWrite: options.allowsWrite } : {}),
  };
  if (existing) {
    const changed = (Object.keys(fromTelegram) as Array<keyof typeof fromTelegram>).some(
      (key) => existing[key] !== fromTelegram[key],
    );
    return {
      user: changed ? await updateUser(db, existing.id, now, fromTelegram) : existing,
      created: false,
    };
  }
  const referral = options.startParam?.startsWith('ref_')
    ? options.startParam
    : (options.referralCode ?? null);
  try {
    const user = await createUser(
      db,
      {
        telegramId: profile.id,
        isActive: true,
        firstName: (profile.first_name ?? '').slice(0, 150),
        lastName: (profile.last_name ?? '').slice(0, 150),
        language: isLanguage(profile.language_code) ? profile.language_code : null,
        ...fromTelegram,
      },
      referral,
      { welcomeCredits: options.welcomeCredits },
    );
    return { user, created: true };
  } catch (error) {
    // Two first requests at once: the other one created the account.
    const again = await findUserByTelegramId(db, profile.id);
    if (again) return { user: again, created: false };
    throw error;
  }
}
