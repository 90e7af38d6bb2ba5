import type { NOTIFICATION_KINDS } from './post-constants.js';

/** Where a notice can reach a user. */
export const NOTIFICATION_CHANNELS = ['in_app', 'telegram', 'email'] as const;
export type TNotificationChannelName = (typeof NOTIFICATION_CHANNELS)[number];

/**
 * What users choose notices by: a few groups they recognise rather than every raw kind. Sign-in
 * links, password resets, activation, receipts, staff bans and data-export links are not notices
 * of any category: they always reach the user and cannot be turned off.
 */
export const NOTIFICATION_CATEGORIES = [
  'subscribers',
  'royalties',
  'generations',
  'models',
  'partners',
  'subscription',
  'moderation',
] as const;
export type TNotificationCategoryName = (typeof NOTIFICATION_CATEGORIES)[number];

/** Every kind belongs to exactly one category (a new kind does not compile until it is placed). */
export const NOTIFICATION_CATEGORY_OF: Record<
  (typeof NOTIFICATION_KINDS)[number],
  TNotificationCategoryName
> = {
  new_subscriber: 'subscribers',
  royalty: 'royalties',
  generation_finished: 'generations',
  model_ready: 'models',
  partner_joined: 'partners',
  commission_frozen: 'partners',
  commission_available: 'partners',
  payout_paid: 'partners',
  payout_rejected: 'partners',
  subscription_renewal_failed: 'subscription',
  post_removed: 'moderation',
  post_restored: 'moderation',
};

/**
 * What a user gets before choosing anything: what Mirra sent before preferences existed, so an
 * existing account notices no change until it opts out. Every notice was shown in the app; the bot
 * wrote about ready models and the partner programme; no notice went by email.
 */
export const NOTIFICATION_DEFAULTS: Record<
  TNotificationCategoryName,
  Record<TNotificationChannelName, boolean>
> = {
  subscribers: { in_app: true, telegram: false, email: false },
  royalties: { in_app: true, telegram: false, email: false },
  generations: { in_app: true, telegram: false, email: false },
  models: { in_app: true, telegram: true, email: false },
  partners: { in_app: true, telegram: true, email: false },
  subscription: { in_app: true, telegram: false, email: false },
  moderation: { in_app: true, telegram: false, email: false },
};
