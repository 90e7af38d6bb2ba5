import type { TGenerationMode, TPostStatus } from '@mirra/contracts';

/**
 * The recommended tab's ranking: the "hot" formula. Engagement counts on a log scale and time
 * linearly, so each SCORE_DECAY_SECONDS of newness is worth e times the engagement. Because the
 * time term is fixed at publication, a score changes only when its counters do: it is stored,
 * indexed, and paginated by keyset without ever being recomputed for the passage of time.
 *
 * The same formula is the SQL function `mirra_post_score` (migration 0009_posts_score), which a
 * trigger applies on every counter change; posts.models.test.ts checks they agree. Changing a
 * constant here needs a migration that redefines the function and recomputes `posts.score`.
 */
export const SCORE_EPOCH_SECONDS = 1_735_689_600; // 2025-01-01T00:00:00Z
export const SCORE_DECAY_SECONDS = 43_200; // 12 hours
/** Paid uses (repeat, remix) weigh most, then saves; a view is a weak signal. */
export const ENGAGEMENT_WEIGHTS = { saves: 3, repeats: 5, remixes: 5, viewsPer: 5 } as const;

export interface PostCounters {
  saves: number;
  repeats: number;
  remixes: number;
  views: number;
}

export function engagement(c: PostCounters): number {
  const w = ENGAGEMENT_WEIGHTS;
  // Integer part first, then the division, in this order in SQL too (identical floating point).
  return w.saves * c.saves + w.repeats * c.repeats + w.remixes * c.remixes + c.views / w.viewsPer;
}

/** The stored ranking key; drafts (never published) score 0 and are in no feed anyway. */
export function postScore(c: PostCounters, publishedAt: Date | null): number {
  if (!publishedAt) return 0;
  return (
    Math.log(1 + engagement(c)) + (publishedAt.getTime() / 1000 - SCORE_EPOCH_SECONDS) / SCORE_DECAY_SECONDS
  );
}

/** What a post keeps of the generation it was published from: the recipe for repeat and remix. */
export interface PostRecipe {
  mode: TGenerationMode;
  prompt: string;
  guidance: number;
  style: string | null;
  seed: number;
  durationSeconds: number | null;
}

/**
 * A generation started from a post is a repeat when it asks for exactly the post's recipe (same
 * mode, prompt, settings and seed), and a remix when anything was changed. Photos are not
 * compared: the author's source photo is private, so a repeat of an editing or styling post
 * always works on the caller's own photo.
 */
export function classifyPostUse(post: PostRecipe, request: Partial<PostRecipe>): 'repeat' | 'remix' {
  const same =
    request.mode === post.mode &&
    (request.prompt ?? '') === post.prompt &&
    request.guidance !== undefined &&
    Math.abs(request.guidance - post.guidance) < 1e-6 &&
    (request.style ?? null) === post.style &&
    request.seed === post.seed &&
    (request.durationSeconds ?? null) === post.durationSeconds;
  return same ? 'repeat' : 'remix';
}

export interface PostAccess {
  status: TPostStatus;
  authorId: number;
}

/** Published posts are for everyone; drafts and hidden posts only for their author. */
export function canSeePost(post: PostAccess, viewerId: number | null): boolean {
  return post.status === 'published' || post.authorId === viewerId;
}

/**
 * Whether a post may be the source of someone's generation: published, or one's own (a draft of
 * mine can be repeated, without royalty).
 */
export const canGenerateFromPost = canSeePost;

/** The share, in percent, of the credits spent on a generation from a post that its author earns. */
export const ROYALTY_PERCENT = 20;

export interface RoyaltySettlement {
  /** Whole credits to pay the author now (0: nothing is written to the ledger). */
  payCredits: number;
  /** Hundredths of a credit still owed to the author, kept for their next settled use (0–99). */
  carriedHundredths: number;
}

/**
 * The author's royalty for one settled use: the share of the credits spent, in hundredths of a
 * credit, is added to what earlier uses left over; whole credits are paid and the rest is carried.
 * Over any run of uses the author is paid exactly the share of everything spent, less under one
 * credit still carried, however small each price is.
 */
export function settleRoyalty(options: {
  carriedHundredths: number;
  spentCredits: number;
}): RoyaltySettlement {
  const owed = options.carriedHundredths + Math.max(0, options.spentCredits) * ROYALTY_PERCENT;
  return { payCredits: Math.floor(owed / 100), carriedHundredths: owed % 100 };
}

/** Distinct unresolved reports at which a published post is hidden until reviewed. */
export function shouldHideAfterReports(reports: number, threshold: number): boolean {
  return threshold > 0 && reports >= threshold;
}

/** The day a view is counted in (UTC): one view per person, post and day. */
export function viewDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** Keyset cursors: opaque to clients, base64url of the sort key and the id of the last row. */
export type CursorKey = number;

export function encodeCursor(key: CursorKey, id: number): string {
  return Buffer.from(JSON.stringify([key, id])).toString('base64url');
}

/** The (key, id) of a cursor, or null when it is not one of ours. */
export function decodeCursor(cursor: string): { key: CursorKey; id: number } | null {
  try {
    if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return null;
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 2) return null;
    const [key, id] = value as unknown[];
    if (typeof key !== 'number' || !Number.isFinite(key)) return null;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) return null;
    return { key, id };
  } catch {
    return null;
  }
}

/** Links to share a profile: the web page, and the Mini App with the `p_<uuid>` start parameter, which the app opens as that profile. */
export function profileShareLinks(
  options: { publicUrl: string; botUsername?: string; miniAppName?: string },
  userUuid: string,
): { web: string; telegram: string | null } {
  const web = `${options.publicUrl}/profile/${userUuid}/`;
  if (!options.botUsername) return { web, telegram: null };
  const app = options.miniAppName ? `/${options.miniAppName}` : '';
  return { web, telegram: `https://t.me/${options.botUsername}${app}?startapp=p_${userUuid}` };
}

export const postShareLink = (publicUrl: string, postUuid: string) => `${publicUrl}/post/${postUuid}/`;

/** How a person is named to others: their name, else their username, else nothing (the web words it). */
export function displayName(user: { firstName: string; lastName: string; username: string }): string {
  return `${user.firstName} ${user.lastName}`.trim() || user.username;
}

/**
 * Search walks time newest first through nested buckets of publication days: level L groups days
 * by 4^L (1, 4, 16, … 16384 days), the last level is everything. Each post carries its bucket at
 * every level (`search_buckets`, set by SQL `mirra_post_search_buckets`, the same as here), indexed
 * with its words in one GIN index. A search asks for "the words AND (the bucket holding the
 * cursor's day OR the one before it)" — a window reaching back at least 4^L days — at a level
 * chosen by how many matches the narrower windows held, until a page is full. A common word is
 * answered by the last day or two, a rare one by wider windows in which it is still rare, so the
 * rows read stay close to the rows returned however common the words are.
 */
export const SEARCH_BUCKET_BASE = 4;
export const SEARCH_BUCKET_LEVELS = 9;
const LAST_LEVEL = SEARCH_BUCKET_LEVELS - 1;
const EVERYTHING = LAST_LEVEL * 10_000_000;
const DAY_MS = 86_400_000;

export function searchBucket(level: number, day: number): number {
  if (level >= LAST_LEVEL) return EVERYTHING;
  return level * 10_000_000 + Math.floor(day / SEARCH_BUCKET_BASE ** level);
}

export function searchBuckets(publishedAt: Date | null): number[] {
  if (!publishedAt) return [];
  const day = dayNumber(publishedAt.getTime());
  return Array.from({ length: SEARCH_BUCKET_LEVELS }, (_, level) => searchBucket(level, day));
}

/** What a level searches below a day: its bucket and the one before, and the first day they hold. */
export function searchWindow(level: number, day: number): { buckets: number[]; firstDay: number } {
  if (level >= LAST_LEVEL) return { buckets: [EVERYTHING], firstDay: -Infinity };
  const bucket = searchBucket(level, day);
  const size = SEARCH_BUCKET_BASE ** level;
  return { buckets: [bucket, bucket - 1], firstDay: (Math.floor(day / size) - 1) * size };
}

/**
 * The next level to search after `level` found `found` of the `wanted` rows below `upperMs` (the
 * cursor, or the newest post): the narrowest window that, at the density seen so far, should hold
 * twice what the page needs (with nothing found, 16 times the time covered so far). Returns
 * SEARCH_BUCKET_LEVELS when everything was searched.
 */
export function nextSearchLevel(
  level: number,
  progress: { found: number; wanted: number; upperMs: number },
): number {
  if (level >= LAST_LEVEL) return SEARCH_BUCKET_LEVELS;
  const day = dayNumber(progress.upperMs);
  const reach = (l: number) => progress.upperMs - searchWindow(l, day).firstDay * DAY_MS;
  const covered = reach(level);
  const needed = progress.found === 0 ? covered * 16 : (covered * 2 * progress.wanted) / progress.found;
  let next = level + 1;
  while (next < LAST_LEVEL && reach(next) < needed) next++;
  return next;
}

/** UTC days since 1970 of a time in milliseconds. */
export const dayNumber = (ms: number) => Math.floor(ms / DAY_MS);
