import { z } from 'zod';

/**
 * What a notification is about (spec: /notifications). Each kind fills the fields of `data` it
 * needs; the web app words it in the reader's language.
 */
export const NOTIFICATION_KINDS = [
  /** Someone subscribed to me: `user_uuid`, `user_name`. */
  'new_subscriber',
  /** A generation made from my post completed: `amount` credits, `post_uuid`, `user_uuid`, `user_name`. */
  'royalty',
  /** My digital model finished training: `model_uuid`, `model_name`. */
  'model_ready',
  /** My generation finished: `generation_uuid`, `mode`. */
  'generation_finished',
  /** My post was taken down: `post_uuid`, `reason`. */
  'post_removed',
] as const;
export const ZNotificationKind = z.enum(NOTIFICATION_KINDS);
export type TNotificationKind = z.infer<typeof ZNotificationKind>;

export const ZNotificationData = z.object({
  user_uuid: z.uuid().optional(),
  user_name: z.string().optional(),
  amount: z.number().int().optional(),
  post_uuid: z.uuid().optional(),
  model_uuid: z.uuid().optional(),
  model_name: z.string().optional(),
  generation_uuid: z.uuid().optional(),
  mode: z.string().optional(),
  reason: z.string().optional(),
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
