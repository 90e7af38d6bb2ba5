import { routes } from '@mirra/contracts';
import { api } from '../../../lib/api-client';
import type { TCreatePostBody, TReportBody, TUpdatePostBody } from '../../../lib/api-types';
import type { PostListType } from '../post-tabs';

/** Page size of every post list (the server's default, said out loud). */
export const POSTS_PAGE_SIZE = 20;

export const postKeys = {
  all: ['posts'] as const,
  lists: () => ['posts', 'list'] as const,
  list: (type: PostListType, q: string) => ['posts', 'list', type, q] as const,
  byAuthor: (userUuid: string) => ['posts', 'list', 'author', userUuid] as const,
  one: (uuid: string) => ['posts', 'one', uuid] as const,
  ofGeneration: (generationUuid: string) => ['posts', 'of-generation', generationUuid] as const,
  shareOf: (generationUuid: string) => ['posts', 'share-of', generationUuid] as const,
  shared: (token: string) => ['posts', 'shared', token] as const,
};

export const postsApi = {
  list: (type: PostListType, q: string, cursor: string | null) =>
    api(routes.posts.list, { query: { type, q: q || undefined, cursor, limit: POSTS_PAGE_SIZE } }),
  byAuthor: (userUuid: string, cursor: string | null) =>
    api(routes.social.posts, {
      params: { uuid: userUuid },
      query: { cursor, limit: POSTS_PAGE_SIZE },
    }),
  get: (uuid: string) => api(routes.posts.get, { params: { uuid } }),
  /** The post made from one of my results, or null while it has none. */
  ofGeneration: async (generationUuid: string) =>
    (await api(routes.posts.ofGeneration, { params: { uuid: generationUuid } })).post,
  create: (body: TCreatePostBody) => api(routes.posts.create, { body }),
  update: (uuid: string, body: TUpdatePostBody) => api(routes.posts.update, { params: { uuid }, body }),
  /** Unpublish: back to my drafts. */
  unpublish: (uuid: string) => api(routes.posts.unpublish, { params: { uuid } }),
  save: (uuid: string) => api(routes.posts.save, { params: { uuid } }),
  unsave: (uuid: string) => api(routes.posts.unsave, { params: { uuid } }),
  view: (uuid: string) => api(routes.posts.view, { params: { uuid } }),
  report: (uuid: string, body: TReportBody) => api(routes.posts.report, { params: { uuid }, body }),
  /** The post's picture as one of my uploads (the same upload each time). */
  useImage: (uuid: string) => api(routes.posts.useImage, { params: { uuid } }),
};

/** Lasting links to my results: the post's page when published, else a share page I can stop. */
export const sharesApi = {
  /** How one of my results is shared now (null: not at all). */
  of: async (generationUuid: string) =>
    (await api(routes.shares.ofGeneration, { params: { uuid: generationUuid } })).share,
  create: (generationUuid: string) => api(routes.shares.create, { params: { uuid: generationUuid } }),
  revoke: async (generationUuid: string) =>
    (await api(routes.shares.revoke, { params: { uuid: generationUuid } })).share,
  /** A shared result, as anyone with its link sees it. */
  get: (token: string) => api(routes.shares.get, { params: { token } }),
};
