import { routes } from '@mirra/contracts';
import { requireAuth } from '../../shared/http/auth-context.js';
import { serve } from '../../shared/http/serve-route.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { SocialDeps } from './social.deps.js';
import { listUserPosts } from '../posts/index.js';
import { getProfile, subscribe, unsubscribe } from './social.usecases.js';

const r = routes.social;

/** Profiles (the app's /profile/:uuid/) and subscriptions. */
export function registerSocialRoutes(app: ZodApp, deps: SocialDeps): void {
  serve(app, r.profile, async (request) => getProfile(deps, requireAuth(request).user, request.params.uuid));
  serve(app, r.posts, async (request) =>
    listUserPosts(deps, requireAuth(request).user, request.params.uuid, request.query),
  );
  serve(app, r.subscribe, async (request) => subscribe(deps, requireAuth(request).user, request.params.uuid));
  serve(app, r.unsubscribe, async (request) =>
    unsubscribe(deps, requireAuth(request).user, request.params.uuid),
  );
}
