import { GENERATION_MODES } from '@mirra/contracts';
import type { TNotification, TNotificationKind } from '../../lib/api-types';
import { formatMoney } from '../payments';

export interface NotificationText {
  /** i18n key of the sentence. */
  key: string;
  values: Record<string, string | number>;
  /** Values that are themselves texts to translate (value name → i18n key). */
  terms: Record<string, string>;
  /** Where the notification leads, when what it is about is known. */
  href: string | null;
}

type Describe = (data: TNotification['data'], language: string) => NotificationText;

const name = (data: TNotification['data']) => data.user_name?.trim() || '';

/** A money amount in minor units, written as the wallet writes it in the reader's language ("19,90 ₽"). */
const partnerMoney =
  (key: string, href: string): Describe =>
  (data, language) => ({
    key,
    values: { amount: formatMoney(data.amount ?? 0, data.currency ?? 643, language) },
    terms: {},
    href,
  });

/**
 * How each kind is said and where it leads. A `Record` over every kind: a new kind in the
 * contracts fails the type check here until it has its wording.
 */
const DESCRIBE: Record<TNotificationKind, Describe> = {
  new_subscriber: (data) => ({
    key: name(data) ? 'social.notifications.newSubscriber' : 'social.notifications.newSubscriberAnonymous',
    values: { name: name(data) },
    terms: {},
    href: data.user_uuid ? `/profile/${data.user_uuid}/` : null,
  }),
  royalty: (data) => ({
    key: name(data) ? 'social.notifications.royalty' : 'social.notifications.royaltyAnonymous',
    values: { name: name(data), count: data.amount ?? 0 },
    terms: {},
    href: data.post_uuid ? `/post/${data.post_uuid}/` : null,
  }),
  model_ready: (data) => ({
    key: data.model_name?.trim()
      ? 'social.notifications.modelReady'
      : 'social.notifications.modelReadyUnnamed',
    values: { name: data.model_name?.trim() ?? '' },
    terms: {},
    href: data.model_uuid ? `/model/${data.model_uuid}/` : null,
  }),
  generation_finished: (data) => ({
    key: 'social.notifications.generationFinished',
    values: {},
    terms: { mode: `modes.${data.mode ?? GENERATION_MODES[0]}.title` },
    href: data.generation_uuid ? `/generation/${data.generation_uuid}/` : null,
  }),
  post_removed: (data) => ({
    key:
      data.reason === 'reported'
        ? 'social.notifications.postRemovedReported'
        : data.reason === 'moderator'
          ? 'social.notifications.postRemovedByModerator'
          : 'social.notifications.postRemoved',
    values: {},
    terms: {},
    // A post staff removed no longer exists: nothing to open.
    href: data.post_uuid && data.reason !== 'moderator' ? `/post/${data.post_uuid}/` : null,
  }),
  post_restored: (data) => ({
    key: 'social.notifications.postRestored',
    values: {},
    terms: {},
    href: data.post_uuid ? `/post/${data.post_uuid}/` : null,
  }),
  partner_joined: (data) => ({
    key: 'social.notifications.partnerJoined',
    values: { name: name(data) || '—' },
    terms: {},
    href: '/structure/linear/',
  }),
  commission_frozen: partnerMoney('social.notifications.commissionFrozen', '/settings/mlm/'),
  commission_available: partnerMoney('social.notifications.commissionAvailable', '/wallet'),
  payout_paid: partnerMoney('social.notifications.payoutPaid', '/wallet/pay-out/'),
  payout_rejected: partnerMoney('social.notifications.payoutRejected', '/wallet/pay-out/'),
  subscription_renewal_failed: (data) => ({
    key: data.attempts_left ? 'social.notifications.renewalFailed' : 'social.notifications.renewalStopped',
    values: { count: data.attempts_left ?? 0 },
    terms: {},
    href: '/settings/subscription/',
  }),
};

export function describeNotification(
  notification: Pick<TNotification, 'kind' | 'data'>,
  language: string,
): NotificationText {
  return DESCRIBE[notification.kind](notification.data, language);
}
