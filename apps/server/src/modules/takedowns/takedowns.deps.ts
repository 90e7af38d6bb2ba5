import type { SharedDeps } from '../../shared/deps.js';
import type { PostsDeps } from '../posts/index.js';

/** What the takedowns module is handed: the posts' slice (it hides and removes posts) and a rate limiter. */
export type TakedownsDeps = PostsDeps & Pick<SharedDeps, 'rateLimiter'>;
