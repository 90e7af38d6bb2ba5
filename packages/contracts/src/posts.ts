import { z } from 'zod';
import { optionalText } from './fields.js';
import { ZGenerationMode, ZImageVariant, ZStyle } from './generations.js';
import {
  POST_LIST_TYPES,
  POST_REPORT_COMMENT_MAX_LENGTH,
  POST_SEARCH_MAX_LENGTH,
  POST_TITLE_MAX_LENGTH,
  REPORT_REASONS,
} from './post-constants.js';
import { ZPublicUser } from './users.js';

/**
 * A post's life: `draft` (saved, visible to its author only), `published` (in feeds and on the
 * profile), `hidden` (enough people reported it; out of sight until reviewed, and its author
 * cannot publish it again meanwhile).
 */
export const POST_STATUSES = ['draft', 'published', 'hidden'] as const;
export const ZPostStatus = z.enum(POST_STATUSES);
export type TPostStatus = z.infer<typeof ZPostStatus>;

/** `top` (where /posts/ and /prompts/top/ lead) is the recommended tab. */
export const ZPostListType = z
  .enum([...POST_LIST_TYPES, 'top'], { error: 'Choose a feed.' })
  .transform((type) => (type === 'top' ? 'recommended' : type));
export type TPostListType = (typeof POST_LIST_TYPES)[number];

export const ZReportReason = z.enum(REPORT_REASONS, { error: 'Choose a reason.' });
export type TReportReason = z.infer<typeof ZReportReason>;

/** Publish one of my completed results, or keep it as a draft. */
export const ZCreatePostBody = z.object({
  generation_uuid: z.uuid({ error: 'Not found.' }),
  title: optionalText(POST_TITLE_MAX_LENGTH).default(''),
  /** true keeps it as a draft: saved on my profile, not public. */
  draft: z.boolean().default(false),
});
export type TCreatePostBody = z.input<typeof ZCreatePostBody>;

/** Change the title, publish a draft (`draft: false`) or take a post back to drafts (`draft: true`). */
export const ZUpdatePostBody = z.object({
  title: optionalText(POST_TITLE_MAX_LENGTH).optional(),
  draft: z.boolean().optional(),
});

export const ZPostAuthor = z.object({
  uuid: z.uuid(),
  firstName: z.string(),
  lastName: z.string(),
  username: z.string(),
  avatar_url: z.string().nullable(),
});

export const ZPostImage = z.object({
  /** The full-size original (for download and sharing). */
  url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  /** image/jpeg, image/png, or video/mp4 (then the renditions are its poster). */
  content_type: z.string().nullish(),
  /** WebP renditions, smallest first, for `srcset`. */
  variants: z.array(ZImageVariant),
});

/**
 * What a new generation needs to start from this post: repeat sends it unchanged (same seed), remix
 * prefills the form with it. `needs_image`: the mode works on a photo (editing, styling, face
 * swap); the author's source photo is private, so the caller brings their own, or uses this post's
 * image (`POST /api/posts/<uuid>/use_image/`).
 */
export const ZPostRecipe = z.object({
  mode: ZGenerationMode,
  prompt: z.string(),
  guidance: z.number(),
  style: ZStyle.nullable(),
  seed: z.number().int(),
  duration: z.number().int().nullable(),
  needs_image: z.boolean(),
});
export type TPostRecipe = z.infer<typeof ZPostRecipe>;

export const ZPost = z.object({
  uuid: z.uuid(),
  title: z.string(),
  /** Shown with the post. */
  prompt: z.string(),
  status: ZPostStatus,
  author: ZPostAuthor,
  image: ZPostImage,
  recipe: ZPostRecipe,
  saves_count: z.number().int(),
  views_count: z.number().int(),
  repeats_count: z.number().int(),
  remixes_count: z.number().int(),
  /** Whether I saved it (false for guests). */
  is_saved: z.boolean(),
  is_mine: z.boolean(),
  /** The result it was published from; only its author sees it. */
  generation_uuid: z.uuid().nullable(),
  share_url: z.string(),
  created_at: z.iso.datetime(),
  /** When it was first published (unpublishing and publishing again keeps it). */
  published_at: z.iso.datetime().nullable(),
});
export type TPost = z.infer<typeof ZPost>;

/** Whether one of my results has been posted: `post` is null while it has not (a normal answer, not a 404). */
export const ZPostOfGeneration = z.object({ post: ZPost.nullable() });
export type TPostOfGeneration = z.infer<typeof ZPostOfGeneration>;

export const ZPostList = z.object({ results: z.array(ZPost), next: z.string().nullable() });

export const ZPostListQuery = z.object({
  type: ZPostListType.default('recommended'),
  /** Words of the title or prompt, in any of the six languages (web-search syntax: "…", or, -). */
  q: z.string().trim().max(POST_SEARCH_MAX_LENGTH).optional(),
  cursor: z.string().max(200).optional(),
  limit: z
    .string()
    .regex(/^\d{1,3}$/, { error: 'A valid integer is required.' })
    .transform(Number)
    .pipe(z.number().int().min(1).max(50))
    .optional(),
});

/** One person's published posts: the feed's query without its `type`. */
export const ZUserPostsQuery = ZPostListQuery.omit({ type: true });

export const ZSaveState = z.object({ is_saved: z.boolean(), saves_count: z.number().int() });

export const ZReportBody = z.object({
  reason: ZReportReason,
  comment: optionalText(POST_REPORT_COMMENT_MAX_LENGTH, 'multi').optional(),
});

/** Another user's profile (or mine) as /profile/ shows it. */
export const ZProfile = ZPublicUser.extend({
  avatar_url: z.string().nullable(),
  subscribers_count: z.number().int(),
  subscriptions_count: z.number().int(),
  /** Published posts. */
  posts_count: z.number().int(),
  is_subscribed: z.boolean(),
  is_me: z.boolean(),
  share_url: z.string(),
  /** Opens the profile in the Telegram Mini App (`p_<uuid>` start parameter); null without a bot. */
  telegram_share_url: z.string().nullable(),
});
export type TProfile = z.infer<typeof ZProfile>;

export const ZSubscriptionState = z.object({
  is_subscribed: z.boolean(),
  subscribers_count: z.number().int(),
});
