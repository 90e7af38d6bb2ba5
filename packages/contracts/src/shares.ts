import { z } from 'zod';
import { ZPostAuthor, ZPostImage } from './posts.js';

/**
 * A result shared by link before (or instead of) being published: a page anyone with the link may
 * open, until its owner stops sharing it. The token is the page's only key, random and unguessable.
 */
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{22,64}$/;

/** The share page of a token (the web app's route and the address the server answers). */
export const sharePagePath = (token: string) => `/s/${token}/`;

/** `/<token>/` in a path: anything but a token's shape is answered like a missing share. */
export const ZShareTokenParams = z.object({
  token: z.string().regex(SHARE_TOKEN_PATTERN, { error: 'Not found.' }),
});

/**
 * The durable link to one of my results: its post's page when it is published (`post`), else its
 * share page (`share`), which I can stop sharing.
 */
export const ZResultShare = z.object({
  url: z.string(),
  kind: z.enum(['post', 'share']),
  /** When the share page's link was made; null for a post's page. */
  shared_at: z.iso.datetime().nullable(),
});
export type TResultShare = z.infer<typeof ZResultShare>;

/** How a result is shared now: by its post, by a share page, or not at all (null). */
export const ZResultShareState = z.object({ share: ZResultShare.nullable() });
export type TResultShareState = z.infer<typeof ZResultShareState>;

/** What a share page shows anyone with its link: the picture (or video) and who made it. */
export const ZSharedResult = z.object({
  author: ZPostAuthor,
  image: ZPostImage,
  shared_at: z.iso.datetime(),
});
export type TSharedResult = z.infer<typeof ZSharedResult>;
