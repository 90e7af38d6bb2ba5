// Loaded on demand, when a feed address is about to open.
export { prefetchFeed } from './feed-query';
