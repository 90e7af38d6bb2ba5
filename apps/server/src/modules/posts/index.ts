/**
 * The public face of the posts module: the only file other modules and the composition root
 * import from it. Anything not exported here is the module's own business.
 */
export { postGenerationSources } from './post-generations.usecases.js';
export { createModelPosts } from './post-consent.usecases.js';
export type { PostsDeps } from './posts.deps.js';
export { cannotSubscribeToSelf } from './posts.errors.js';
export { displayName, profileShareLinks, viewDay } from './posts.models.js';
export { registerPostsRoutes } from './posts.routes.js';
export { pageWithPreview } from './link-previews.models.js';
export { postLinkPreview, shareLinkPreview } from './result-shares.usecases.js';
export { deleteViewsBefore, findActiveUser, listUserPosts } from './posts.usecases.js';
export type { PublishedPostCounter } from './published-post-counter.js';
export {
  hidePostPendingReview,
  listReportedPosts,
  removeReportedPost,
  restoreReportedPost,
  type ReportedPost,
} from './post-reviews.usecases.js';
