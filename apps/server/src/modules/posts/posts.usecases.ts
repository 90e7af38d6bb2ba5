import type { z } from 'zod';
import {
  GenerationStatus,
  type TPost,
  type TPostOfGeneration,
  type TPostListType,
  type TUpload,
  type ZCreatePostBody,
  type ZReportBody,
  type ZUpdatePostBody,
} from '@mirra/contracts';
import type { PostsDeps } from './posts.deps.js';
import { AppError, fieldError, notAuthenticated } from '../../shared/errors.js';
import { generationNotFound, findOwnGeneration } from '../generations/index.js';
import { bundledFfmpegPath, sampleVideoFrames } from '@mirra/imaging';
import { notifyUser } from '../notifications/index.js';
import { copyStoredImageAsUpload } from '../uploads/index.js';
import { isConsentWithdrawn } from '../models/index.js';
import { type UserRow, findUsersByRefs } from '../users/index.js';
import {
  postAlreadyExists,
  postConsentWithdrawn,
  postNotFound,
  postNotPublishable,
  postResultModerated,
  postTitleModerated,
  postUnderReview,
} from './posts.errors.js';
import { canSeePost, decodeCursor, encodeCursor, shouldHideAfterReports, viewDay } from './posts.models.js';
import {
  postsRepository,
  type KeyedPost,
  type ListOptions,
  type PostWithAuthor,
} from './posts.repository.js';
import { toPostJson, type StoredPostImage } from './posts.serializers.js';

type CreateBody = z.output<typeof ZCreatePostBody>;
type UpdateBody = z.output<typeof ZUpdatePostBody>;
type ReportBody = z.output<typeof ZReportBody>;

const DEFAULT_PAGE = 20;

function serialize(deps: PostsDeps, post: PostWithAuthor, viewerId: number | null, isSaved = false): TPost {
  return toPostJson(
    post,
    { userId: viewerId, isSaved },
    { mediaUrls: deps.mediaUrls, now: deps.now(), publicUrl: deps.config.publicUrl },
  );
}

async function serializeOne(deps: PostsDeps, post: PostWithAuthor, viewerId: number | null): Promise<TPost> {
  const saved = viewerId ? await postsRepository.savedAmong(deps.db, viewerId, [post.id]) : new Set();
  return serialize(deps, post, viewerId, saved.has(post.id));
}

/** A post the viewer may see; anyone else's draft or hidden post is answered as missing. */
async function findVisiblePost(deps: PostsDeps, uuid: string, viewerId: number | null) {
  const post = await postsRepository.findByUuid(deps.db, uuid);
  if (!post || !canSeePost({ status: post.status, authorId: post.userId }, viewerId)) throw postNotFound();
  return post;
}

async function findOwnPost(deps: PostsDeps, uuid: string, userId: number) {
  const post = await postsRepository.findByUuid(deps.db, uuid);
  if (!post || post.userId !== userId) throw postNotFound();
  return post;
}

async function checkTitle(deps: PostsDeps, title: string): Promise<void> {
  if (!title) return;
  const verdict = await deps.promptModerator.check(title);
  if (verdict.flagged) throw postTitleModerated();
}

/**
 * A result passes moderation again whenever it becomes public, with whatever moderation is
 * configured now (thresholds may have been tightened since it was made).
 */
async function checkImage(deps: PostsDeps, image: StoredPostImage): Promise<void> {
  // Drawn by code from shapes: nothing explicit can be in it (see EngineOutput.procedural).
  if (image.procedural) return;
  const file = await deps.storage.get(image.original.key);
  if (!file) throw postNotPublishable();
  // A video is judged by frames spread over it: one flagged frame refuses it.
  const pictures = isVideoPost(image)
    ? await sampleVideoFrames({
        path: bundledFfmpegPath(),
        mp4: file.data,
        seconds: image.durationSeconds ?? 1,
        count: VIDEO_MODERATION_FRAMES,
        timeoutMs: 60_000,
      })
    : [file.data];
  for (const picture of pictures) {
    const verdict = await deps.imageModerator.check(picture);
    if (verdict.flagged) throw postResultModerated();
  }
}

/** Frames of a video the classifier looks at before it is published. */
export const VIDEO_MODERATION_FRAMES = 4;

const isVideoPost = (image: StoredPostImage) => image.original.contentType.startsWith('video/');

/**
 * Publishes one of my completed picture results (or keeps it as a draft). The prompt and the
 * settings are copied with it (they are what repeat and remix start from); the photos it was made
 * from are not: they stay private.
 */
export async function createPost(deps: PostsDeps, user: UserRow, body: CreateBody): Promise<TPost> {
  const generation = await findOwnGeneration(deps.db, body.generation_uuid, user.id);
  if (!generation) throw generationNotFound();
  const result = generation.result;
  if (
    generation.status !== GenerationStatus.COMPLETED ||
    !result ||
    !/^(image|video)\//.test(result.original.contentType)
  ) {
    throw postNotPublishable();
  }
  const existing = await postsRepository.findByGenerationId(deps.db, generation.id);
  if (existing) throw postAlreadyExists(existing.uuid);
  // Its posts were taken down when the person in it withdrew consent; it is never published again.
  if (generation.modelUuid && (await isConsentWithdrawn(deps, generation.modelUuid))) {
    throw postConsentWithdrawn();
  }
  const image: StoredPostImage = {
    original: result.original,
    variants: result.variants,
    procedural: result.procedural ?? false,
    ...(result.original.contentType.startsWith('video/')
      ? { durationSeconds: generation.durationSeconds ?? null }
      : {}),
  };
  await checkTitle(deps, body.title);
  if (!body.draft) await checkImage(deps, image);

  const now = deps.now();
  const created = await deps.db.transaction(async (tx) => {
    // Asked again holding the consent row: a withdrawal under way is waited for and refuses this
    // post, and one starting now waits for this post and then takes it down with the others.
    if (generation.modelUuid && (await isConsentWithdrawn(deps, generation.modelUuid, tx))) {
      throw postConsentWithdrawn();
    }
    const row = await postsRepository.insert(tx, {
      userId: user.id,
      generationId: generation.id,
      generationUuid: generation.uuid,
      status: body.draft ? 'draft' : 'published',
      title: body.title,
      prompt: generation.prompt,
      mode: generation.mode,
      guidance: generation.guidance,
      style: generation.style,
      seed: generation.seed,
      durationSeconds: generation.durationSeconds,
      image,
      createdAt: now,
      publishedAt: body.draft ? null : now,
    });
    if (!row) return undefined;
    if (row.status === 'published') await deps.publishedPostCounter.add(tx, user.id, 1);
    return row;
  });
  if (!created) {
    // A double submit: the other request made the post a moment ago.
    const other = await postsRepository.findByGenerationId(deps.db, generation.id);
    throw postAlreadyExists(other?.uuid ?? '');
  }
  return serializeOne(deps, (await postsRepository.findByUuid(deps.db, created.uuid))!, user.id);
}

export async function getPost(deps: PostsDeps, viewer: UserRow | null, uuid: string): Promise<TPost> {
  const post = await findVisiblePost(deps, uuid, viewer?.id ?? null);
  return serializeOne(deps, post, viewer?.id ?? null);
}

/**
 * The post made from one of my generations, or null (the result screen's publish state). "Not
 * posted yet" is the usual state of a result, so it is an answer, not a 404 the browser would log.
 */
export async function getPostOfGeneration(
  deps: PostsDeps,
  user: UserRow,
  generationUuid: string,
): Promise<TPostOfGeneration> {
  const generation = await findOwnGeneration(deps.db, generationUuid, user.id);
  if (!generation) throw generationNotFound();
  const post = await postsRepository.findByGenerationId(deps.db, generation.id);
  return { post: post ? await serializeOne(deps, post, user.id) : null };
}

/** Publishes a draft, takes a post back to drafts, or changes the title. Author only. */
export async function updatePost(
  deps: PostsDeps,
  user: UserRow,
  uuid: string,
  body: UpdateBody,
): Promise<TPost> {
  const post = await findOwnPost(deps, uuid, user.id);
  if (body.title !== undefined) await checkTitle(deps, body.title);
  const publish = body.draft === false && post.status !== 'published';
  if (publish) {
    if (post.status === 'hidden') throw postUnderReview();
    await checkImage(deps, post.image);
  }
  await deps.db.transaction(async (tx) => {
    const title = body.title !== undefined ? { title: body.title } : {};
    if (publish) {
      // The first publication time is kept, so unpublishing and publishing again cannot bump a post.
      const changed = await postsRepository.changeStatus(tx, post.id, deps.now(), ['draft'], 'published', {
        ...title,
        publishedAt: post.publishedAt ?? deps.now(),
      });
      if (changed) await deps.publishedPostCounter.add(tx, user.id, 1);
    } else if (body.draft === true && post.status === 'published') {
      const changed = await postsRepository.changeStatus(
        tx,
        post.id,
        deps.now(),
        ['published'],
        'draft',
        title,
      );
      if (changed) await deps.publishedPostCounter.add(tx, user.id, -1);
    } else if (body.title !== undefined) {
      await postsRepository.update(tx, post.id, deps.now(), title);
    }
  });
  return serializeOne(deps, (await postsRepository.findByUuid(deps.db, uuid))!, user.id);
}

/**
 * Unpublishes: the post leaves every feed and goes back to my drafts (saves and counts are kept
 * for when it is published again). A hidden post stays hidden. Repeating it changes nothing.
 */
export function unpublishPost(deps: PostsDeps, user: UserRow, uuid: string): Promise<TPost> {
  return updatePost(deps, user, uuid, { draft: true });
}

/** The feeds (the app's /posts/:type/) and my drafts, optionally searched, by keyset pages. */
export async function listPosts(
  deps: PostsDeps,
  viewer: UserRow | null,
  query: { type: TPostListType; q?: string; cursor?: string; limit?: number },
) {
  const options = listOptions(query);
  const personal = query.type === 'saved' || query.type === 'subscribed' || query.type === 'drafts';
  if (personal && !viewer) throw notAuthenticated();
  const rows = await (() => {
    switch (query.type) {
      // Searching the whole feed: newest first in both tabs (ranking matches by engagement would
      // need every match read and sorted).
      case 'new':
      case 'recommended':
        if (options.q) return postsRepository.search(deps.db, { ...options, q: options.q });
        return query.type === 'new'
          ? postsRepository.listNew(deps.db, options)
          : postsRepository.listRecommended(deps.db, options);
      case 'saved':
        return postsRepository.listSaved(deps.db, viewer!.id, options);
      case 'subscribed':
        return postsRepository.listSubscribed(deps.db, viewer!.id, options);
      case 'drafts':
        return postsRepository.listDrafts(deps.db, viewer!.id, options);
    }
  })();
  return toPage(deps, rows, viewer?.id ?? null, options.limit - 1, query.type === 'saved');
}

/** One person's published posts, newest first (their profile's grid). */
export async function listUserPosts(
  deps: PostsDeps,
  viewer: UserRow,
  userUuid: string,
  query: { q?: string; cursor?: string; limit?: number },
) {
  const author = await findActiveUser(deps, userUuid);
  const options = listOptions(query);
  const rows = await postsRepository.listByAuthor(deps.db, author.id, options);
  return toPage(deps, rows, viewer.id, options.limit - 1, false);
}

export async function findActiveUser(deps: Pick<PostsDeps, 'db'>, uuid: string): Promise<UserRow> {
  const [user] = await findUsersByRefs(deps.db, [], [uuid.toLowerCase()]);
  if (!user || !user.isActive) throw usersNotFound();
  return user;
}

const usersNotFound = () => new AppError({ code: 'users.not_found', detail: 'Not found.' });

function listOptions(query: { q?: string; cursor?: string; limit?: number }): ListOptions {
  const cursor = query.cursor ? decodeCursor(query.cursor) : null;
  if (query.cursor && !cursor) throw fieldError('common.validation', { cursor: ['Invalid cursor.'] });
  // One row more than the page tells whether there is a next one.
  return { cursor, q: query.q || undefined, limit: (query.limit ?? DEFAULT_PAGE) + 1 };
}

async function toPage(
  deps: PostsDeps,
  rows: KeyedPost[],
  viewerId: number | null,
  limit: number,
  allSaved: boolean,
) {
  const page = rows.slice(0, limit);
  const saved =
    viewerId && !allSaved
      ? await postsRepository.savedAmong(
          deps.db,
          viewerId,
          page.map((row) => row.id),
        )
      : new Set<number>();
  const last = page.at(-1);
  return {
    results: page.map((row) => serialize(deps, row, viewerId, allSaved || saved.has(row.id))),
    next: rows.length > limit && last ? encodeCursor(last.sortKey, last.id) : null,
  };
}

/** Saves a post to my saved tab; saving twice is one save. */
export async function savePost(deps: PostsDeps, user: UserRow, uuid: string) {
  const post = await findVisiblePost(deps, uuid, user.id);
  return deps.db.transaction(async (tx) => {
    const added = await postsRepository.insertSave(tx, user.id, post.id);
    const row = added ? await postsRepository.addToCounter(tx, post.id, 'savesCount', 1) : undefined;
    return { is_saved: true, saves_count: row?.savesCount ?? post.savesCount };
  });
}

export async function unsavePost(deps: PostsDeps, user: UserRow, uuid: string) {
  const post = await findVisiblePost(deps, uuid, user.id);
  return deps.db.transaction(async (tx) => {
    const removed = await postsRepository.deleteSave(tx, user.id, post.id);
    const row = removed ? await postsRepository.addToCounter(tx, post.id, 'savesCount', -1) : undefined;
    return { is_saved: false, saves_count: row?.savesCount ?? post.savesCount };
  });
}

/**
 * Counts a view of a post: once per person and day however often it is opened, and never the
 * author's own.
 */
export async function recordPostView(deps: PostsDeps, user: UserRow, uuid: string): Promise<void> {
  const post = await findVisiblePost(deps, uuid, user.id);
  if (post.userId === user.id || post.status !== 'published') return;
  await deps.db.transaction(async (tx) => {
    const first = await postsRepository.insertView(tx, post.id, user.id, viewDay(deps.now()));
    if (first) await postsRepository.addToCounter(tx, post.id, 'viewsCount', 1);
  });
}

/**
 * Reports a published post. Each person counts once; at POST_REPORT_HIDE_THRESHOLD distinct
 * reports the post is hidden from everyone but its author until reviewed, and the author is told
 * (`post_removed`). Hiding takes several people, so no one person can take a post down; and the
 * author's own report counts for nothing.
 */
export async function reportPost(
  deps: PostsDeps,
  user: UserRow,
  uuid: string,
  body: ReportBody,
): Promise<void> {
  const post = await findVisiblePost(deps, uuid, user.id);
  if (post.userId === user.id || post.status !== 'published') return;
  await deps.db.transaction(async (tx) => {
    const first = await postsRepository.insertReport(tx, {
      postId: post.id,
      userId: user.id,
      reason: body.reason,
      comment: body.comment ?? '',
    });
    if (!first) return;
    const row = await postsRepository.addToCounter(tx, post.id, 'reportsCount', 1);
    if (!row || !shouldHideAfterReports(row.reportsCount, deps.config.posts.reportHideThreshold)) return;
    const hidden = await postsRepository.changeStatus(tx, post.id, deps.now(), ['published'], 'hidden');
    if (!hidden) return;
    await deps.publishedPostCounter.add(tx, post.userId, -1);
    await notifyUser(tx, {
      userId: post.userId,
      kind: 'post_removed',
      data: { post_uuid: post.uuid, reason: 'reported' },
      dedupeKey: `post_removed:${post.uuid}:${row.reportsCount}`,
    });
  });
}

/**
 * A copy of a post's picture as one of my uploads, to use as the photo of my own generation
 * (face swap onto it, edit or style it). Only the published result is copied, never the author's
 * source photos. The upload's id is derived from me and the post, so asking again (or twice at
 * once) gives the same upload.
 */
export async function usePostImage(deps: PostsDeps, user: UserRow, uuid: string): Promise<TUpload> {
  const post = await findVisiblePost(deps, uuid, user.id);
  const { original } = post.image;
  const upload = await copyStoredImageAsUpload(deps, user.id, `post-image:${user.id}:${post.uuid}`, {
    ...original,
    generationId: post.generationId,
  });
  if (!upload) throw postNotFound();
  return upload;
}

/** Views are deduplicated per day: the rows of days before `day` can no longer be counted again. */
export async function deleteViewsBefore(deps: Pick<PostsDeps, 'db'>, day: string): Promise<void> {
  await postsRepository.deleteViewsBefore(deps.db, day);
}
