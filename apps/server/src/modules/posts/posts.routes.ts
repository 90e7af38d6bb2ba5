import { routes } from '@mirra/contracts';
import { requireAuth } from '../../shared/http/auth-context.js';
import { serve } from '../../shared/http/serve-route.js';
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
import {
  getResultShare,
  getSharedResult,
  postPreviewImage,
  revokeResultShare,
  sharePreviewImage,
  shareResult,
} from './result-shares.usecases.js';

const r = routes.posts;

/** Posts and the feed (the app's /posts/:type/ and /post/:uuid/ pages). */
export function registerPostsRoutes(app: ZodApp, deps: PostsDeps): void {
  serve(app, r.create, async (request) => createPost(deps, requireAuth(request).user, request.body));
  serve(app, r.list, async (request) => listPosts(deps, request.auth?.user ?? null, request.query));
  serve(app, r.get, async (request) => getPost(deps, request.auth?.user ?? null, request.params.uuid));
  serve(app, r.update, async (request) =>
    updatePost(deps, requireAuth(request).user, request.params.uuid, request.body),
  );
  serve(app, r.unpublish, async (request) =>
    unpublishPost(deps, requireAuth(request).user, request.params.uuid),
  );
  serve(app, r.save, async (request) => savePost(deps, requireAuth(request).user, request.params.uuid));
  serve(app, r.unsave, async (request) => unsavePost(deps, requireAuth(request).user, request.params.uuid));
  serve(app, r.view, async (request) => {
    await recordPostView(deps, requireAuth(request).user, request.params.uuid);
    return null;
  });
  serve(app, r.report, async (request) => {
    await reportPost(deps, requireAuth(request).user, request.params.uuid, request.body);
    return null;
  });
  serve(app, r.useImage, async (request) =>
    usePostImage(deps, requireAuth(request).user, request.params.uuid),
  );
  serve(app, r.ofGeneration, async (request) =>
    getPostOfGeneration(deps, requireAuth(request).user, request.params.uuid),
  );
  registerSharesRoutes(app, deps);
}

/**
 * Durable links to results. Preview pictures are public for as long as what they show is: an
 * hour in caches, so a post taken back or a share stopped soon stops showing in new previews.
 */
function registerSharesRoutes(app: ZodApp, deps: PostsDeps): void {
  const s = routes.shares;
  serve(app, s.ofGeneration, async (request) =>
    getResultShare(deps, requireAuth(request).user, request.params.uuid),
  );
  serve(app, s.create, async (request) => shareResult(deps, requireAuth(request).user, request.params.uuid));
  serve(app, s.revoke, async (request) =>
    revokeResultShare(deps, requireAuth(request).user, request.params.uuid),
  );
  serve(app, s.get, async (request) => getSharedResult(deps, request.params.token));
  serve(app, s.image, async (request, reply) =>
    reply
      .type('image/jpeg')
      .header('cache-control', 'public, max-age=3600')
      .send(await sharePreviewImage(deps, request.params.token)),
  );
  serve(app, s.postImage, async (request, reply) =>
    reply
      .type('image/jpeg')
      .header('cache-control', 'public, max-age=3600')
      .send(await postPreviewImage(deps, request.params.uuid)),
  );
}
