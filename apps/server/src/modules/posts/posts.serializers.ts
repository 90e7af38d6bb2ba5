import {
  photoCountOf,
  type TGenerationMode,
  type TPost,
  type TPostStatus,
  type TStyle,
} from '@mirra/contracts';
import type { MediaUrls } from '../../shared/storage/media-urls.js';
import { postShareLink } from './posts.models.js';
import type { PostWithAuthor } from './posts.repository.js';

export type { StoredPostImage } from '../../shared/db/json-columns.js';

export interface PostViewer {
  userId: number | null;
  isSaved: boolean;
}

export function toPostJson(
  post: PostWithAuthor,
  viewer: PostViewer,
  context: { mediaUrls: MediaUrls; now: Date; publicUrl: string },
): TPost {
  const image = post.image;
  const { mediaUrls, now } = context;
  const isMine = viewer.userId === post.userId;
  return {
    uuid: post.uuid,
    title: post.title,
    prompt: post.prompt,
    status: post.status as TPostStatus,
    author: {
      uuid: post.authorUuid,
      firstName: post.authorFirstName,
      lastName: post.authorLastName,
      username: post.authorUsername,
      avatar_url: post.authorAvatarUrl,
    },
    image: {
      url: mediaUrls.url(image.original.key, now),
      width: image.original.width,
      height: image.original.height,
      content_type: image.original.contentType,
      variants: image.variants.map((v) => ({
        url: mediaUrls.url(v.key, now),
        width: v.width,
        height: v.height,
      })),
    },
    recipe: {
      mode: post.mode as TGenerationMode,
      prompt: post.prompt,
      guidance: post.guidance,
      style: (post.style as TStyle | null) ?? null,
      seed: post.seed,
      duration: post.durationSeconds,
      needs_image: photoCountOf(post.mode as TGenerationMode).min > 0,
    },
    saves_count: post.savesCount,
    views_count: post.viewsCount,
    repeats_count: post.repeatsCount,
    remixes_count: post.remixesCount,
    is_saved: viewer.isSaved,
    is_mine: isMine,
    generation_uuid: isMine ? post.generationUuid : null,
    share_url: postShareLink(context.publicUrl, post.uuid),
    created_at: post.createdAt.toISOString(),
    published_at: post.publishedAt?.toISOString() ?? null,
  };
}
