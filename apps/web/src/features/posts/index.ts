// Published pictures: the feeds, a post's page and its actions, publishing a result.
export { postKeys, postsApi } from './api/posts.api';
export { DraftPostActions, FeedPostActions } from './components/post-actions';
export { PostList } from './components/post-list';
export { PostView } from './components/post-view';
export { PostsFeed } from './components/posts-feed';
export { PublishAction } from './components/publish-action';
export { ResultShareButton, ResultShareNote } from './components/result-share';
export { PostGuestView, SharedResultView } from './components/shared-views';
export { tabOfRoute } from './post-tabs';
