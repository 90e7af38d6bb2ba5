import type { InfiniteData } from '@tanstack/react-query';
import type { TPost, TPostList } from '../../lib/api-types';

/**
 * The posts of all loaded pages, each once: the recommended tab is ranked by a score that moves
 * while someone scrolls, so a post may come again on a later page (the first place wins).
 */
export function uniquePosts(pages: readonly Pick<TPostList, 'results'>[]): TPost[] {
  const seen = new Set<string>();
  const posts: TPost[] = [];
  for (const page of pages) {
    for (const post of page.results) {
      if (seen.has(post.uuid)) continue;
      seen.add(post.uuid);
      posts.push(post);
    }
  }
  return posts;
}

type PostPatch = Partial<TPost> | ((post: TPost) => Partial<TPost>);

function isPostList(data: unknown): data is InfiniteData<TPostList> {
  return Boolean(data && typeof data === 'object' && Array.isArray((data as { pages?: unknown }).pages));
}

function isPost(data: unknown): data is TPost {
  return Boolean(data && typeof data === 'object' && 'uuid' in data && 'recipe' in data);
}

/**
 * One post changed (saved, unpublished, retitled): the same change in whatever cache holds it — a
 * single post or pages of a list — so every screen shows it at once. Untouched data is returned
 * as is (no re-render).
 */
export function patchCachedPost<T>(data: T, uuid: string, patch: PostPatch): T {
  const apply = (post: TPost): TPost =>
    post.uuid === uuid ? { ...post, ...(typeof patch === 'function' ? patch(post) : patch) } : post;
  if (isPost(data)) return (data.uuid === uuid ? apply(data) : data) as T;
  if (!isPostList(data)) return data;
  if (!data.pages.some((page) => page.results.some((post) => post.uuid === uuid))) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({ ...page, results: page.results.map(apply) })),
  } as T;
}

/** A post leaves a list (unpublished from a feed, published from the drafts). */
export function dropCachedPost<T>(data: T, uuid: string): T {
  if (!isPostList(data)) return data;
  if (!data.pages.some((page) => page.results.some((post) => post.uuid === uuid))) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({ ...page, results: page.results.filter((p) => p.uuid !== uuid) })),
  } as T;
}

/** Saving as the screen shows it before the server answers: the flag and the count move together. */
export function withSaved(post: Pick<TPost, 'is_saved' | 'saves_count'>, isSaved: boolean) {
  if (post.is_saved === isSaved) return { is_saved: isSaved, saves_count: post.saves_count };
  return { is_saved: isSaved, saves_count: Math.max(0, post.saves_count + (isSaved ? 1 : -1)) };
}
