import type { TProfile } from '@mirra/contracts';
import type { SocialDeps } from './social.deps.js';
import { notifyUser } from '../notifications/index.js';
import {
  cannotSubscribeToSelf,
  displayName,
  profileShareLinks,
  findActiveUser,
  type PublishedPostCounter,
} from '../posts/index.js';
import { type UserRow, toPublicUserJson } from '../users/index.js';
import { socialRepository } from './social.repository.js';

/** A person's profile as /profile/ and /profile/:uuid/ show it, counts included (no counting rows). */
export async function getProfile(deps: SocialDeps, viewer: UserRow, uuid: string): Promise<TProfile> {
  const user = await findActiveUser(deps, uuid);
  const isMe = user.id === viewer.id;
  const [counters, isSubscribed] = await Promise.all([
    socialRepository.counters(deps.db, user.id),
    isMe ? false : socialRepository.isSubscribed(deps.db, viewer.id, user.id),
  ]);
  const links = profileShareLinks(
    {
      publicUrl: deps.config.publicUrl,
      botUsername: deps.config.telegram.botUsername,
      miniAppName: deps.config.telegram.miniAppName,
    },
    user.uuid,
  );
  return {
    ...toPublicUserJson(user, viewer.id),
    avatar_url: user.telegramPhotoUrl,
    subscribers_count: counters.subscribers,
    subscriptions_count: counters.subscriptions,
    posts_count: counters.posts,
    is_subscribed: isSubscribed,
    is_me: isMe,
    share_url: links.web,
    telegram_share_url: links.telegram,
  };
}

/**
 * Subscribes me to someone: once however often asked; the counters of both people change in the
 * same transaction, and the author hears of it once per subscriber (unsubscribing and
 * subscribing again does not notify again).
 */
export async function subscribe(deps: SocialDeps, viewer: UserRow, uuid: string) {
  const author = await findActiveUser(deps, uuid);
  if (author.id === viewer.id) throw cannotSubscribeToSelf();
  await deps.db.transaction(async (tx) => {
    if (!(await socialRepository.insertSubscription(tx, viewer.id, author.id))) return;
    await addToBothCounters(tx, viewer.id, author.id, 1);
    await notifyUser(tx, {
      userId: author.id,
      kind: 'new_subscriber',
      data: { user_uuid: viewer.uuid, user_name: displayName(viewer) },
      dedupeKey: `new_subscriber:${viewer.id}:${author.id}`,
    });
  });
  const counters = await socialRepository.counters(deps.db, author.id);
  return { is_subscribed: true, subscribers_count: counters.subscribers };
}

export async function unsubscribe(deps: SocialDeps, viewer: UserRow, uuid: string) {
  const author = await findActiveUser(deps, uuid);
  await deps.db.transaction(async (tx) => {
    if (!(await socialRepository.deleteSubscription(tx, viewer.id, author.id))) return;
    await addToBothCounters(tx, viewer.id, author.id, -1);
  });
  const counters = await socialRepository.counters(deps.db, author.id);
  return { is_subscribed: false, subscribers_count: counters.subscribers };
}

/**
 * Both people's counter rows, locked in id order: two people subscribing to each other at the
 * same moment would otherwise lock them in opposite orders and deadlock.
 */
async function addToBothCounters(
  tx: Parameters<typeof socialRepository.addToCounters>[0],
  subscriberId: number,
  authorId: number,
  delta: number,
) {
  const changes = [
    { userId: subscriberId, delta: { subscriptions: delta } },
    { userId: authorId, delta: { subscribers: delta } },
  ].sort((a, b) => a.userId - b.userId);
  for (const change of changes) await socialRepository.addToCounters(tx, change.userId, change.delta);
}

/** The published-post counter of profiles, handed to the posts module by the composition root. */
export const profilePublishedPostCounter: PublishedPostCounter = {
  add: (tx, authorId, delta) => socialRepository.addToCounters(tx, authorId, { posts: delta }),
};
