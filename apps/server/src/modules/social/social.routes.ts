import { ZPostList, ZProfile, ZSubscriptionState } from '@mirra/contracts';
import { requireAuth } from '../../shared/http/auth-context.js';
import { ZUuidParams } from '../../shared/http/params.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { SocialDeps } from './social.deps.js';
import { listUserPosts, ZUserPostsQuery } from '../posts/index.js';
import { getProfile, subscribe, unsubscribe } from './social.usecases.js';

const tags = ['people'];
const security: Array<Record<string, string[]>> = [{ bearer: [] }, { telegram: [] }];

/** Profiles (spec /profile/:uuid/) and subscriptions. */
export function registerSocialRoutes(app: ZodApp, deps: SocialDeps): void {
  app.get(
    '/api/users/:uuid/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'A person’s profile: counts, whether I follow them, share links',
        params: ZUuidParams,
        response: { 200: ZProfile },
        security,
      },
    },
    async (request) => getProfile(deps, requireAuth(request).user, request.params.uuid),
  );

  app.get(
    '/api/users/:uuid/posts/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'A person’s published posts, newest first (keyset pages)',
        params: ZUuidParams,
        querystring: ZUserPostsQuery,
        response: { 200: ZPostList },
        security,
      },
    },
    async (request) => listUserPosts(deps, requireAuth(request).user, request.params.uuid, request.query),
  );

  app.post(
    '/api/users/:uuid/subscribe/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'Subscribe to a person (again is a no-op)',
        params: ZUuidParams,
        response: { 200: ZSubscriptionState },
        security,
      },
    },
    async (request) => subscribe(deps, requireAuth(request).user, request.params.uuid),
  );

  app.delete(
    '/api/users/:uuid/subscribe/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'Unsubscribe from a person (again is a no-op)',
        params: ZUuidParams,
        response: { 200: ZSubscriptionState },
        security,
      },
    },
    async (request) => unsubscribe(deps, requireAuth(request).user, request.params.uuid),
  );
}
