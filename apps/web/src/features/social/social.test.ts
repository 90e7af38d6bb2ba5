import { describe, expect, it } from 'vitest';
import { countsOf, profileShareUrl, withSubscription, withSubscriptionState } from './subscription';

const profile = {
  is_subscribed: false,
  subscribers_count: 4,
  subscriptions_count: 2,
  posts_count: 7,
  share_url: 'https://mirra.example/profile/u/',
  telegram_share_url: 'https://t.me/mirra_bot?startapp=p_u' as string | null,
};

describe('subscribing', () => {
  it('moves the button and the subscriber count together', () => {
    const subscribed = withSubscription(profile, true);
    expect(subscribed).toMatchObject({ is_subscribed: true, subscribers_count: 5 });
    expect(withSubscription(subscribed, false)).toMatchObject({ is_subscribed: false, subscribers_count: 4 });
  });

  it('changes nothing when pressed for the state it is in, and never counts below zero', () => {
    expect(withSubscription(profile, false)).toBe(profile);
    expect(
      withSubscription({ ...profile, is_subscribed: true, subscribers_count: 0 }, false).subscribers_count,
    ).toBe(0);
  });

  it('takes the server’s flag and count over the guess', () => {
    const guessed = withSubscription(profile, true);
    expect(withSubscriptionState(guessed, { is_subscribed: true, subscribers_count: 9 })).toMatchObject({
      is_subscribed: true,
      subscribers_count: 9,
      posts_count: 7,
    });
  });
});

describe('profiles', () => {
  it('shares the Telegram p_ link inside Telegram, the web address elsewhere', () => {
    expect(profileShareUrl(profile, true)).toBe('https://t.me/mirra_bot?startapp=p_u');
    expect(profileShareUrl(profile, false)).toBe('https://mirra.example/profile/u/');
    expect(profileShareUrl({ ...profile, telegram_share_url: null }, true)).toBe(
      'https://mirra.example/profile/u/',
    );
  });

  it('shows posts, subscribers and subscriptions', () => {
    expect(countsOf(profile)).toEqual({ posts: 7, subscribers: 4, subscriptions: 2 });
  });
});
