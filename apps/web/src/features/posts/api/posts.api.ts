import { api } from '../../../lib/api-client';
import type {
  TCreatePostBody,
  TPost,
  TPostList,
  TPostOfGeneration,
  TReportBody,
  TSaveState,
  TUpdatePostBody,
  TUpload,
} from '../../../lib/api-types';
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
};

export const postsApi = {
  list: (type: PostListType, q: string, cursor: string | null) =>
    api.get<TPostList>('/api/posts/', {
      query: { type, q: q || undefined, cursor, limit: POSTS_PAGE_SIZE },
    }),
  byAuthor: (userUuid: string, cursor: string | null) =>
    api.get<TPostList>(`/api/users/${userUuid}/posts/`, { query: { cursor, limit: POSTS_PAGE_SIZE } }),
  get: (uuid: string) => api.get<TPost>(`/api/posts/${uuid}/`),
  /** The post made from one of my results, or null while it has none. */
  ofGeneration: async (generationUuid: string) =>
    (await api.get<TPostOfGeneration>(`/api/generations/${generationUuid}/post/`)).post,
  create: (body: TCreatePostBody) => api.post<TPost>('/api/posts/', body),
  update: (uuid: string, body: TUpdatePostBody) => api.patch<TPost>(`/api/posts/${uuid}/`, body),
  /** Unpublish: back to my drafts. */
  unpublish: (uuid: string) => api.delete<TPost>(`/api/posts/${uuid}/`),
  save: (uuid: string) => api.post<TSaveState>(`/api/posts/${uuid}/save/`),
  unsave: (uuid: string) => api.delete<TSaveState>(`/api/posts/${uuid}/save/`),
  view: (uuid: string) => api.post<null>(`/api/posts/${uuid}/view/`),
  report: (uuid: string, body: TReportBody) => api.post<null>(`/api/posts/${uuid}/report/`, body),
  /** The post's picture as one of my uploads (the same upload each time). */
  useImage: (uuid: string) => api.post<TUpload>(`/api/posts/${uuid}/use_image/`),
};
