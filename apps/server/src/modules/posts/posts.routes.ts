import { z } from 'zod';
import {
  ZCreatePostBody,
  ZPost,
  ZPostList,
  ZPostListQuery,
  ZPostOfGeneration,
  ZReportBody,
  ZSaveState,
  ZUpdatePostBody,
  ZUpload,
} from '@mirra/contracts';
import { requireAuth } from '../../shared/http/auth-context.js';
import { ZUuidParams } from '../../shared/http/params.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { PostsDeps } from './posts.deps.js';
import {
  createPost,
  getPost,
  getPostOfGeneration,
  listPosts,
  recordPostView,
  reportPost,
  savePost,
  unpublishPost,
  unsavePost,
  updatePost,
  usePostImage,
} from './posts.usecases.js';

const tags = ['posts'];
const security: Array<Record<string, string[]>> = [{ bearer: [] }, { telegram: [] }];
const noContent = { 204: z.null().describe('No content') };
export const ZUserPostsQuery = ZPostListQuery.omit({ type: true });

/** Posts and the feed (spec /posts/:type/, /post/:uuid/). */
export function registerPostsRoutes(app: ZodApp, deps: PostsDeps): void {
  app.post(
    '/api/posts/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'Publish one of my completed results (moderated again), or keep it as a draft',
        body: ZCreatePostBody,
        response: { 201: ZPost },
        security,
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createPost(deps, requireAuth(request).user, request.body)),
  );

  app.get(
    '/api/posts/',
    {
      config: { auth: 'optional' },
      schema: {
        tags,
        summary:
          'A feed: recommended (top), new, saved, subscribed, or my drafts; `q` searches titles and prompts. Keyset pages: pass `next` as `cursor`.',
        querystring: ZPostListQuery,
        response: { 200: ZPostList },
        security,
      },
    },
    async (request) => listPosts(deps, request.auth?.user ?? null, request.query),
  );

  app.get(
    '/api/posts/:uuid/',
    {
      config: { auth: 'optional' },
      schema: {
        tags,
        summary: 'One post (a draft or hidden post only for its author)',
        params: ZUuidParams,
        response: { 200: ZPost },
        security,
      },
    },
    async (request) => getPost(deps, request.auth?.user ?? null, request.params.uuid),
  );

  app.patch(
    '/api/posts/:uuid/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'Change the title, publish a draft (`draft: false`) or unpublish (`draft: true`)',
        params: ZUuidParams,
        body: ZUpdatePostBody,
        response: { 200: ZPost },
        security,
      },
    },
    async (request) => updatePost(deps, requireAuth(request).user, request.params.uuid, request.body),
  );

  app.delete(
    '/api/posts/:uuid/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'Unpublish: the post goes back to my drafts',
        params: ZUuidParams,
        response: { 200: ZPost },
        security,
      },
    },
    async (request) => unpublishPost(deps, requireAuth(request).user, request.params.uuid),
  );

  for (const method of ['post', 'delete'] as const) {
    app[method](
      '/api/posts/:uuid/save/',
      {
        config: { auth: 'required' },
        schema: {
          tags,
          summary: method === 'post' ? 'Save a post (again is a no-op)' : 'Unsave a post (again is a no-op)',
          params: ZUuidParams,
          response: { 200: ZSaveState },
          security,
        },
      },
      async (request) =>
        method === 'post'
          ? savePost(deps, requireAuth(request).user, request.params.uuid)
          : unsavePost(deps, requireAuth(request).user, request.params.uuid),
    );
  }

  app.post(
    '/api/posts/:uuid/view/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'Count a view (once per person and day; the author’s own views are not counted)',
        params: ZUuidParams,
        response: noContent,
        security,
      },
    },
    async (request, reply) => {
      await recordPostView(deps, requireAuth(request).user, request.params.uuid);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/posts/:uuid/report/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'Report a post; after POST_REPORT_HIDE_THRESHOLD people it is hidden until reviewed',
        params: ZUuidParams,
        body: ZReportBody,
        response: noContent,
        security,
      },
    },
    async (request, reply) => {
      await reportPost(deps, requireAuth(request).user, request.params.uuid, request.body);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/posts/:uuid/use_image/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary:
          'Copy the post’s picture into my uploads, to face swap onto it or edit or style it (the same upload each time)',
        params: ZUuidParams,
        response: { 201: ZUpload },
        security,
      },
    },
    async (request, reply) =>
      reply.status(201).send(await usePostImage(deps, requireAuth(request).user, request.params.uuid)),
  );

  app.get(
    '/api/generations/:uuid/post/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'The post made from one of my generations ({post: null} when it has none)',
        params: ZUuidParams,
        response: { 200: ZPostOfGeneration },
        security,
      },
    },
    async (request) => getPostOfGeneration(deps, requireAuth(request).user, request.params.uuid),
  );
}
