import {
  postUuidFromLink,
  takedownMessages,
  type TTakedownReceipt,
  type ZTakedownBody,
} from '@mirra/contracts';
import type { z } from 'zod';
import type { DbOrTx } from '../../shared/db/client.js';
import { fieldError } from '../../shared/errors.js';
import type { RecordStaffChange } from '../../shared/staff-audit.js';
import type { StoredFiles } from '../../shared/storage/file-deletion.js';
import type { Storage } from '../../shared/storage/storage.js';
import { removeGenerationForGood } from '../generations/index.js';
import { hidePostPendingReview, removeReportedPost, restoreReportedPost } from '../posts/index.js';
import { blockPicture } from '../provenance/index.js';
import { removeCopiesOfGeneration } from '../uploads/index.js';
import type { UserRow } from '../users/index.js';
import type { TakedownsDeps } from './takedowns.deps.js';
import { isUrgentTakedown, takedownDeadline } from './takedowns.models.js';
import { takedownsRepository, type TakedownRow } from './takedowns.repository.js';

type TakedownBody = z.output<typeof ZTakedownBody>;

const receiptOf = (row: TakedownRow, hidden: boolean): TTakedownReceipt => ({
  received_at: row.receivedAt.toISOString(),
  deadline_at: row.deadlineAt?.toISOString() ?? null,
  hidden,
});

/**
 * A request to remove a post, from anyone, signed in or not, within a per-address rate. An urgent
 * one (an intimate or non-consensual picture) hides the post from everyone but its author at once
 * and gets its deadline, received_at + 48 hours; the others join the review queue with the post
 * still shown. Sending the same request again (same post and contact) changes nothing.
 */
export async function requestTakedown(
  deps: TakedownsDeps,
  requester: UserRow | null,
  body: TakedownBody,
  ip: string,
): Promise<TTakedownReceipt> {
  const { rateLimits } = deps.config;
  await deps.rateLimiter.hit([
    { key: `takedowns:ip:${ip}`, limit: rateLimits.takedownsPerIp, windowSeconds: rateLimits.windowSeconds },
  ]);
  const postUuid = postUuidFromLink(body.post_url);
  if (!postUuid) throw fieldError('common.validation', { post_url: [takedownMessages.postLink] });
  const urgent = isUrgentTakedown(body.category);
  return deps.db.transaction(async (tx) => {
    const post = await hidePostPendingReview(deps, tx, postUuid, { hide: urgent });
    if (!post) throw fieldError('common.validation', { post_url: [takedownMessages.noPost] });
    const known = await takedownsRepository.findOpen(tx, postUuid, body.contact_email);
    if (known && (known.deadlineAt || !urgent)) return receiptOf(known, post.hidden);
    const receivedAt = deps.now();
    const row = await takedownsRepository.insert(tx, {
      postId: post.id,
      postUuid,
      category: body.category,
      contactEmail: body.contact_email,
      details: body.details ?? '',
      requesterId: requester?.id ?? null,
      receivedAt,
      deadlineAt: takedownDeadline(body.category, receivedAt),
    });
    return receiptOf(row, post.hidden);
  });
}

/** A picture to hash when its generation kept none: a still variant (a video's poster) or the original. */
async function stillOf(
  storage: Storage,
  image: { original: { key: string; contentType: string }; variants: Array<{ key: string }> },
) {
  const key = image.original.contentType.startsWith('image/') ? image.original.key : image.variants[0]?.key;
  return key ? ((await storage.get(key))?.data ?? null) : null;
}

/**
 * Staff remove a reported post, in the caller's transaction. With open takedown requests every
 * copy goes: the post, its generation with the original, variants, previews and posters in
 * storage (by a retried job, and the returned files at once after the commit), and the picture's
 * perceptual hash is blocked so it cannot be uploaded again; the requests are answered `removed`.
 * Without one, a post is removed as any reported post (the author keeps the result).
 */
export async function removeReportedPostForGood(
  deps: Pick<TakedownsDeps, 'now' | 'publishedPostCounter' | 'storage'>,
  tx: DbOrTx,
  uuid: string,
  record: RecordStaffChange,
): Promise<{ authorId: number; files: StoredFiles }> {
  const open = await takedownsRepository.lockOpen(tx, uuid);
  const removed = await removeReportedPost(deps, tx, uuid, record);
  if (open.length === 0) return { authorId: removed.authorId, files: {} };
  const at = deps.now();
  await blockPicture(tx, {
    generationId: removed.generationId,
    still: () => stillOf(deps.storage, removed.image),
    reason: `takedown:${open[0]!.category}`,
    at,
  });
  const generationFiles = await removeGenerationForGood(tx, removed.generationId);
  // Copies of the picture in anyone's uploads ("use this picture", a post's picture taken for a
  // face swap or an edit) go too.
  const copies = await removeCopiesOfGeneration(tx, removed.generationId);
  await takedownsRepository.resolve(tx, uuid, at, 'removed');
  return {
    authorId: removed.authorId,
    files: {
      keys: [...(generationFiles.keys ?? []), ...(copies.keys ?? [])],
      prefixes: generationFiles.prefixes ?? [],
    },
  };
}

/** Staff reject a post's reports and takedown requests: it is published again (see restoreReportedPost). */
export async function rejectReportsOfPost(
  deps: Pick<TakedownsDeps, 'now' | 'publishedPostCounter'>,
  tx: DbOrTx,
  uuid: string,
  record: RecordStaffChange,
): Promise<void> {
  await takedownsRepository.lockOpen(tx, uuid);
  await restoreReportedPost(deps, tx, uuid, record);
  await takedownsRepository.resolve(tx, uuid, deps.now(), 'rejected');
}
