import {
  NOTIFICATION_CATEGORIES,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_DEFAULTS,
  type TNotificationCategoryName,
  type TNotificationChannelName,
  type TNotificationData,
  type TNotificationKind,
  type TNotificationPreferences,
} from '@mirra/contracts';
import type { MessageKey } from '../../shared/i18n/messages.js';

export type PreferenceMatrix = Record<TNotificationCategoryName, Record<TNotificationChannelName, boolean>>;

const isCategory = (value: string): value is TNotificationCategoryName =>
  (NOTIFICATION_CATEGORIES as readonly string[]).includes(value);
const isChannel = (value: string): value is TNotificationChannelName =>
  (NOTIFICATION_CHANNELS as readonly string[]).includes(value);

/** The defaults with a user's stored choices laid over them (rows of retired categories are ignored). */
export function resolvePreferences(
  stored: ReadonlyArray<{ category: string; channel: string; enabled: boolean }>,
): PreferenceMatrix {
  const matrix = Object.fromEntries(
    NOTIFICATION_CATEGORIES.map((category) => [category, { ...NOTIFICATION_DEFAULTS[category] }]),
  ) as PreferenceMatrix;
  for (const row of stored) {
    if (isCategory(row.category) && isChannel(row.channel)) matrix[row.category][row.channel] = row.enabled;
  }
  return matrix;
}

/** Whether the account can be reached on each channel at all, whatever the preferences say. */
export function reachableChannels(user: {
  telegramId: number | null;
  telegramAllowsWrite: boolean;
  email: string | null;
}): Record<TNotificationChannelName, boolean> {
  return {
    in_app: true,
    telegram: user.telegramId !== null && user.telegramAllowsWrite,
    email: user.email !== null && user.email !== '',
  };
}

/**
 * The channels the settings screen offers: Telegram once linked (even if the bot may not write yet:
 * the choice holds for when it may), email once the account has one.
 */
export function toPreferencesJson(
  matrix: PreferenceMatrix,
  user: { telegramId: number | null; email: string | null },
): TNotificationPreferences {
  return {
    channels: { in_app: true, telegram: user.telegramId !== null, email: !!user.email },
    categories: NOTIFICATION_CATEGORIES.map((category) => ({ category, ...matrix[category] })),
  };
}

/** How a notice reads outside the app (bot message, email) and where its button leads. */
export interface NoticeWording {
  key: MessageKey;
  /** Placeholder values; `amount` is filled in by the caller from `money` or `credits`. */
  args: Record<string, string>;
  money?: { amount: number; currency: number };
  /** A path on the site (the bot's button, the email's link). */
  path: string;
  /** The button's label. */
  buttonKey: MessageKey;
}

const BOT_KEYS = {
  partner_joined: 'bot.partner_joined',
  commission_frozen: 'bot.commission_frozen',
  commission_available: 'bot.commission_available',
  payout_paid: 'bot.payout_paid',
  payout_rejected: 'bot.payout_rejected',
} as const satisfies Partial<Record<TNotificationKind, MessageKey>>;

/** The words of a notice of `kind` with its `data`, for channels outside the app. */
export function wordNotice(kind: TNotificationKind, data: TNotificationData): NoticeWording {
  const name = data.user_name ?? '';
  const open = { buttonKey: 'bot.open_app' as const, path: '/notifications' };
  switch (kind) {
    case 'model_ready':
      return {
        key: 'bot.model_ready',
        args: { name: data.model_name ?? '' },
        path: `/model/${data.model_uuid ?? ''}/`,
        buttonKey: 'bot.open_model',
      };
    case 'partner_joined':
    case 'commission_frozen':
    case 'commission_available':
    case 'payout_paid':
    case 'payout_rejected':
      return {
        key: BOT_KEYS[kind],
        args: { name },
        ...(data.amount !== undefined
          ? { money: { amount: data.amount, currency: data.currency ?? 643 } }
          : {}),
        path: '/settings/mlm/',
        buttonKey: 'bot.open_app',
      };
    case 'new_subscriber':
      return {
        key: 'notice.new_subscriber',
        args: { name },
        ...open,
        ...(data.user_uuid ? { path: `/profile/${data.user_uuid}/` } : {}),
      };
    case 'royalty':
      return { key: 'notice.royalty', args: { name, amount: String(data.amount ?? 0) }, ...open };
    case 'generation_finished':
      return {
        key: 'notice.generation_finished',
        args: {},
        ...open,
        ...(data.generation_uuid ? { path: `/generation/${data.generation_uuid}/` } : {}),
      };
    case 'post_removed':
      return { key: 'notice.post_removed', args: {}, ...open };
    case 'post_restored':
      return {
        key: 'notice.post_restored',
        args: {},
        ...open,
        ...(data.post_uuid ? { path: `/post/${data.post_uuid}/` } : {}),
      };
    case 'subscription_renewal_failed':
      return {
        key: 'notice.subscription_renewal_failed',
        args: {},
        ...open,
        path: '/settings/subscription/',
      };
  }
}
