import type { TProfile, TSubscriptionState } from '../../lib/api-types';

/**
 * A profile as it looks right after pressing subscribe or unsubscribe, before the server answers:
 * the button and the subscriber count move together, and pressing for the state it is already in
 * changes nothing.
 */
export function withSubscription<T extends Pick<TProfile, 'is_subscribed' | 'subscribers_count'>>(
  profile: T,
  isSubscribed: boolean,
): T {
  if (profile.is_subscribed === isSubscribed) return profile;
  return {
    ...profile,
    is_subscribed: isSubscribed,
    subscribers_count: Math.max(0, profile.subscribers_count + (isSubscribed ? 1 : -1)),
  };
}

/** The server's answer wins: its flag and count replace the guess. */
export function withSubscriptionState<T extends Pick<TProfile, 'is_subscribed' | 'subscribers_count'>>(
  profile: T,
  state: TSubscriptionState,
): T {
  return { ...profile, is_subscribed: state.is_subscribed, subscribers_count: state.subscribers_count };
}

/**
 * The link that shares a profile: inside Telegram the Mini App link (`p_<uuid>` start parameter,
 * which opens this profile), else the web address.
 */
export function profileShareUrl(
  profile: Pick<TProfile, 'share_url' | 'telegram_share_url'>,
  inTelegram: boolean,
): string {
  return inTelegram && profile.telegram_share_url ? profile.telegram_share_url : profile.share_url;
}

/** The three numbers of a profile card. */
export function countsOf(
  profile: Pick<TProfile, 'posts_count' | 'subscribers_count' | 'subscriptions_count'>,
) {
  return {
    posts: profile.posts_count,
    subscribers: profile.subscribers_count,
    subscriptions: profile.subscriptions_count,
  };
}
