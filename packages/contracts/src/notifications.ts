import { z } from 'zod';
import { NOTIFICATION_KINDS } from './post-constants.js';
import { NOTIFICATION_CATEGORIES, NOTIFICATION_CHANNELS } from './notification-preferences.js';

export const ZNotificationKind = z.enum(NOTIFICATION_KINDS);
export type TNotificationKind = z.infer<typeof ZNotificationKind>;

export const ZNotificationData = z.object({
  user_uuid: z.uuid().optional(),
  user_name: z.string().optional(),
  amount: z.number().int().optional(),
  /** ISO 4217 numeric currency of a money `amount` (partner commissions, pay-outs). */
  currency: z.number().int().optional(),
  post_uuid: z.uuid().optional(),
  model_uuid: z.uuid().optional(),
  model_name: z.string().optional(),
  generation_uuid: z.uuid().optional(),
  mode: z.string().optional(),
  reason: z.string().optional(),
  attempts_left: z.number().int().optional(),
  access_until: z.string().nullable().optional(),
  next_attempt_at: z.string().nullable().optional(),
});
export type TNotificationData = z.infer<typeof ZNotificationData>;

export const ZNotification = z.object({
  id: z.number().int(),
  kind: ZNotificationKind,
  data: ZNotificationData,
  read: z.boolean(),
  created_at: z.iso.datetime(),
});
export type TNotification = z.infer<typeof ZNotification>;

export const ZNotificationList = z.object({
  results: z.array(ZNotification),
  next: z.string().nullable(),
  /** Unread notifications in all, for the menu badge. */
  unread: z.number().int(),
});

export const ZUnreadCount = z.object({ unread: z.number().int() });

/** Marks the listed notifications read, or every one when `ids` is left out. */
export const ZMarkReadBody = z.object({ ids: z.array(z.number().int()).max(200).optional() });

export const ZNotificationCategory = z.enum(NOTIFICATION_CATEGORIES);
export const ZNotificationChannel = z.enum(NOTIFICATION_CHANNELS);

/** My notification preferences: one row per category, every channel on or off. */
export const ZNotificationPreferences = z.object({
  /** Channels this account can be reached on: Telegram once linked (and the bot may write), email once it has one. */
  channels: z.object({ in_app: z.boolean(), telegram: z.boolean(), email: z.boolean() }),
  categories: z.array(
    z.object({
      category: ZNotificationCategory,
      in_app: z.boolean(),
      telegram: z.boolean(),
      email: z.boolean(),
    }),
  ),
});
export type TNotificationPreferences = z.infer<typeof ZNotificationPreferences>;

/** Turns channels of categories on or off; what is not listed stays as it is. */
export const ZNotificationPreferencesBody = z.object({
  changes: z
    .array(z.object({ category: ZNotificationCategory, channel: ZNotificationChannel, enabled: z.boolean() }))
    .min(1)
    .max(NOTIFICATION_CATEGORIES.length * NOTIFICATION_CHANNELS.length),
});
export type TNotificationPreferencesBody = z.infer<typeof ZNotificationPreferencesBody>;
