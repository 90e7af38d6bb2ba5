import type { TAdminReport, TAdminTakedown, TPost, TReportReason } from '@mirra/contracts';
import type { PostsDeps } from './posts.deps.js';
import type { DbOrTx } from '../../shared/db/client.js';
import type { RecordStaffChange } from '../../shared/staff-audit.js';
import { deleteStoredFilesLater } from '../../shared/storage/file-deletion.js';
import { postStoragePrefix } from '../../shared/storage/storage-keys.js';
import { notifyUser } from '../notifications/index.js';
import { postNotFound } from './posts.errors.js';
import { postsRepository, type PostWithAuthor } from './posts.repository.js';
import { toPostJson } from './posts.serializers.js';

/** How many posts the staff review queue shows at once. */
export const REVIEW_QUEUE_LIMIT = 100;

export interface ReportedPost {
  post: TPost;
  authorId: number;
  reports: TAdminReport[];
  takedowns: TAdminTakedown[];
  /** The earliest deadline of its open takedown requests (urgent ones have one). */
  deadlineAt: Date | null;
}

/**
 * The staff review queue: posts hidden by reports or takedown requests and published posts with
 * open ones, each with its picture, prompt, author, open reports and requests. Urgent takedowns
 * come first by deadline, then posts someone says show them without consent, then the oldest.
 */
export async function listReportedPosts(deps: PostsDeps): Promise<ReportedPost[]> {
  const rows = await postsRepository.listReviewQueue(deps.db, REVIEW_QUEUE_LIMIT);
  const ids = rows.map((row) => row.id);
  const reports = await postsRepository.listOpenReports(deps.db, ids);
  const takedowns = await postsRepository.listOpenTakedowns(deps.db, ids);
  return rows.map((row) => {
    const own = takedowns.filter((takedown) => takedown.postId === row.id);
    const deadlines = own.flatMap((takedown) => (takedown.deadlineAt ? [takedown.deadlineAt.getTime()] : []));
    return {
      post: toPostJson(
        row,
        { userId: null, isSaved: false },
        { mediaUrls: deps.mediaUrls, now: deps.now(), publicUrl: deps.config.publicUrl },
      ),
      authorId: row.userId,
      reports: reports
        .filter((report) => report.postId === row.id)
        .map((report) => ({
          reason: report.reason as TReportReason,
          comment: report.comment,
          reporter_uuid: report.reporterUuid,
          created_at: report.createdAt.toISOString(),
        })),
      takedowns: own.map((takedown) => ({
        category: takedown.category,
        contact_email: takedown.contactEmail,
        details: takedown.details,
        received_at: takedown.receivedAt.toISOString(),
        deadline_at: takedown.deadlineAt?.toISOString() ?? null,
      })),
      deadlineAt: deadlines.length > 0 ? new Date(Math.min(...deadlines)) : null,
    };
  });
}

/**
 * Takes a post out of every feed pending review, in the caller's transaction (an urgent takedown
 * request): hidden from everyone but its author, who is told. Null for no such post (or a draft,
 * which nobody else can see); a post already hidden stays as it is.
 */
export async function hidePostPendingReview(
  deps: Pick<PostsDeps, 'now' | 'publishedPostCounter'>,
  tx: DbOrTx,
  uuid: string,
  options: { hide: boolean },
): Promise<{ id: number; hidden: boolean } | null> {
  const post = await postsRepository.lockByUuid(tx, uuid);
  if (!post || post.status === 'draft') return null;
  if (!options.hide || post.status === 'hidden') return { id: post.id, hidden: post.status === 'hidden' };
  const hidden = await postsRepository.changeStatus(tx, post.id, deps.now(), ['published'], 'hidden');
  if (hidden) {
    await deps.publishedPostCounter.add(tx, post.userId, -1);
    await notifyUser(tx, {
      userId: post.userId,
      kind: 'post_removed',
      data: { post_uuid: post.uuid, reason: 'reported' },
      dedupeKey: `post_removed:${post.uuid}:takedown`,
    });
  }
  return { id: post.id, hidden: true };
}

const snapshot = (post: PostWithAuthor) => ({
  uuid: post.uuid,
  status: post.status,
  title: post.title,
  prompt: post.prompt,
  author_uuid: post.authorUuid,
  reports_count: post.reportsCount,
});

/**
 * Staff restore a reported post, in the caller's transaction: its open reports are answered, a
 * hidden post is published again with its report count back at zero, and its author is told.
 */
export async function restoreReportedPost(
  deps: Pick<PostsDeps, 'now' | 'publishedPostCounter'>,
  tx: DbOrTx,
  uuid: string,
  record: RecordStaffChange,
): Promise<void> {
  const post = await postsRepository.lockByUuid(tx, uuid);
  if (!post || post.status === 'draft') throw postNotFound();
  const resolved = await postsRepository.resolveReports(tx, post.id, deps.now());
  let after = { ...snapshot(post), reports_count: 0 };
  if (post.status === 'hidden') {
    const row = await postsRepository.changeStatus(tx, post.id, deps.now(), ['hidden'], 'published', {
      reportsCount: 0,
    });
    if (row) {
      await deps.publishedPostCounter.add(tx, post.userId, 1);
      after = { ...after, status: row.status };
    }
  } else if (resolved > 0) {
    await postsRepository.addToCounter(tx, post.id, 'reportsCount', -post.reportsCount);
  }
  await notifyUser(tx, {
    userId: post.userId,
    kind: 'post_restored',
    data: { post_uuid: post.uuid },
    dedupeKey: `post_restored:${post.uuid}:${deps.now().getTime()}`,
  });
  await record(tx, { before: snapshot(post), after });
}

/**
 * Staff remove a reported post, in the caller's transaction: the post (with its reports, saves and
 * views) is deleted, its author's published count follows, and the author is told. The result it
 * was made from stays in the author's own library; files of the post's own (a deleted author's
 * kept post) are deleted. Returns the author's id.
 */
export async function removeReportedPost(
  deps: Pick<PostsDeps, 'now' | 'publishedPostCounter'>,
  tx: DbOrTx,
  uuid: string,
  record: RecordStaffChange,
): Promise<{ authorId: number; generationId: number; image: PostWithAuthor['image'] }> {
  const post = await postsRepository.lockByUuid(tx, uuid);
  if (!post || post.status === 'draft') throw postNotFound();
  if (post.status === 'published') await deps.publishedPostCounter.add(tx, post.userId, -1);
  await postsRepository.deletePost(tx, post.id);
  // A kept post of a deleted account has its own copies of its files under `posts/<uuid>/`; they
  // go with it, by a retried job. Added for every removal: a post whose files are still under its
  // author's results has nothing there, and one being moved right now has them there soon after.
  await deleteStoredFilesLater(tx, { prefixes: [postStoragePrefix(post.uuid)] });
  await notifyUser(tx, {
    userId: post.userId,
    kind: 'post_removed',
    data: { post_uuid: post.uuid, reason: 'moderator' },
    dedupeKey: `post_removed:${post.uuid}:moderator`,
  });
  await record(tx, { before: snapshot(post), after: null });
  return { authorId: post.userId, generationId: post.generationId, image: post.image };
}
