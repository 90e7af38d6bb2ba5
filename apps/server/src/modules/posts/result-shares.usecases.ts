import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import {
  GenerationStatus,
  routePath,
  routes,
  sharePagePath,
  type TLanguage,
  type TPost,
  type TResultShare,
  type TResultShareState,
  type TSharedResult,
} from '@mirra/contracts';
import { AppError } from '../../shared/errors.js';
import type { StoredPostImage } from '../../shared/db/json-columns.js';
import { translate } from '../../shared/i18n/messages.js';
import { findOwnGeneration, generationNotFound, type GenerationRow } from '../generations/index.js';
import type { UserRow } from '../users/index.js';
import {
  previewSizeOf,
  previewStillOf,
  shortenText,
  PREVIEW_IMAGE_MAX_WIDTH,
  type LinkPreview,
} from './link-previews.models.js';
import type { PostsDeps } from './posts.deps.js';
import { postNotFound } from './posts.errors.js';
import { displayName, postShareLink } from './posts.models.js';
import { postsRepository } from './posts.repository.js';
import { resultSharesRepository, type SharedResultRow } from './result-shares.repository.js';

const shareNotFound = () => new AppError({ code: 'shares.not_found', detail: 'Not found.' });
const shareRevoked = () =>
  new AppError({ code: 'shares.revoked', detail: 'Its owner stopped sharing this result.' });
const notShareable = () =>
  new AppError({
    code: 'shares.not_shareable',
    detail: 'Only completed picture and video results can be shared.',
  });

type ShareDeps = Pick<PostsDeps, 'db' | 'config' | 'mediaUrls' | 'storage' | 'now'>;

/** 128 random bits, URL-safe: the share page's only key. */
const newShareToken = () => randomBytes(16).toString('base64url');

const sharePageUrl = (deps: ShareDeps, token: string) => `${deps.config.publicUrl}${sharePagePath(token)}`;

async function findOwnResult(deps: ShareDeps, user: UserRow, generationUuid: string) {
  const generation = await findOwnGeneration(deps.db, generationUuid, user.id);
  if (!generation) throw generationNotFound();
  return generation;
}

const isShareable = (generation: GenerationRow) =>
  generation.status === GenerationStatus.COMPLETED &&
  Boolean(generation.result && /^(image|video)\//.test(generation.result.original.contentType));

/** The published post of a generation wins: its page is the link everyone else uses too. */
async function currentShare(deps: ShareDeps, generation: GenerationRow): Promise<TResultShare | null> {
  const post = await postsRepository.findByGenerationId(deps.db, generation.id);
  if (post?.status === 'published') {
    return { url: postShareLink(deps.config.publicUrl, post.uuid), kind: 'post', shared_at: null };
  }
  const share = await resultSharesRepository.findLive(deps.db, generation.id);
  return share
    ? { url: sharePageUrl(deps, share.token), kind: 'share', shared_at: share.createdAt.toISOString() }
    : null;
}

export async function getResultShare(
  deps: ShareDeps,
  user: UserRow,
  generationUuid: string,
): Promise<TResultShareState> {
  return { share: await currentShare(deps, await findOwnResult(deps, user, generationUuid)) };
}

/**
 * A lasting link to one of my results: its post's page when published, else its share page —
 * the same page on every tap until I stop sharing it.
 */
export async function shareResult(
  deps: ShareDeps,
  user: UserRow,
  generationUuid: string,
): Promise<TResultShare> {
  const generation = await findOwnResult(deps, user, generationUuid);
  if (!isShareable(generation)) throw notShareable();
  const current = await currentShare(deps, generation);
  if (current) return current;
  await resultSharesRepository.insert(deps.db, {
    token: newShareToken(),
    generationId: generation.id,
    at: deps.now(),
  });
  // A double tap made the other one's share: both answer that one.
  return (await currentShare(deps, generation))!;
}

/** Stops sharing by the share page; its link then answers "no longer shared". A post is unpublished instead. */
export async function revokeResultShare(
  deps: ShareDeps,
  user: UserRow,
  generationUuid: string,
): Promise<TResultShareState> {
  const generation = await findOwnResult(deps, user, generationUuid);
  await resultSharesRepository.revokeLive(deps.db, generation.id, deps.now());
  return { share: await currentShare(deps, generation) };
}

/** A live share, or why there is none. */
async function findLiveShare(
  deps: ShareDeps,
  token: string,
): Promise<SharedResultRow & { result: StoredPostImage }> {
  const found = await resultSharesRepository.findByToken(deps.db, token);
  if (!found || !found.result || found.generationStatus !== GenerationStatus.COMPLETED) throw shareNotFound();
  if (found.share.revokedAt) throw shareRevoked();
  return found as SharedResultRow & { result: StoredPostImage };
}

const authorOf = (row: {
  authorUuid: string;
  authorFirstName: string;
  authorLastName: string;
  authorUsername: string;
  authorAvatarUrl: string | null;
}): TPost['author'] => ({
  uuid: row.authorUuid,
  firstName: row.authorFirstName,
  lastName: row.authorLastName,
  username: row.authorUsername,
  avatar_url: row.authorAvatarUrl,
});

export async function getSharedResult(deps: ShareDeps, token: string): Promise<TSharedResult> {
  const found = await findLiveShare(deps, token);
  const now = deps.now();
  const { original, variants } = found.result;
  return {
    author: authorOf(found),
    image: {
      url: deps.mediaUrls.url(original.key, now),
      width: original.width,
      height: original.height,
      content_type: original.contentType,
      variants: variants.map((v) => ({
        url: deps.mediaUrls.url(v.key, now),
        width: v.width,
        height: v.height,
      })),
    },
    shared_at: found.share.createdAt.toISOString(),
  };
}

/** A preview JPEG of a stored picture or poster; null when the file is gone. */
async function previewJpeg(deps: ShareDeps, image: StoredPostImage): Promise<Buffer | null> {
  const still = previewStillOf(image);
  const file = still && (await deps.storage.get(still.key));
  if (!file) return null;
  return sharp(file.data, { limitInputPixels: false })
    .resize({ width: PREVIEW_IMAGE_MAX_WIDTH, withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 82, mozjpeg: true })
    .toBuffer();
}

/** The picture of a published post for link previews. */
export async function postPreviewImage(deps: ShareDeps, uuid: string): Promise<Buffer> {
  const post = await postsRepository.findByUuid(deps.db, uuid);
  if (post?.status !== 'published') throw postNotFound();
  const jpeg = await previewJpeg(deps, post.image);
  if (!jpeg) throw postNotFound();
  return jpeg;
}

/** The picture of a live share for link previews. */
export async function sharePreviewImage(deps: ShareDeps, token: string): Promise<Buffer> {
  const jpeg = await previewJpeg(deps, (await findLiveShare(deps, token)).result);
  if (!jpeg) throw shareNotFound();
  return jpeg;
}

const isVideo = (image: StoredPostImage) => image.original.contentType.startsWith('video/');

function previewImageOf(image: StoredPostImage, url: string, alt: string): LinkPreview['image'] {
  const still = previewStillOf(image);
  return still ? { url, ...previewSizeOf(still), alt } : null;
}

/** The site's own preview, for a page that shows nothing of anyone's (or no longer does). */
function sitePreview(deps: ShareDeps, language: TLanguage, path: string): LinkPreview {
  return {
    title: 'Mirra',
    description: translate(language, 'preview.site_description'),
    url: `${deps.config.publicUrl}${path}`,
    image: null,
  };
}

/**
 * What a link to a post shows in messengers: its title (or whose picture it is), whose picture
 * and its prompt, and the picture. Anything but a published post previews as the site itself,
 * so a draft's or a hidden post's words and picture never leave through its link.
 */
export async function postLinkPreview(
  deps: ShareDeps,
  uuid: string,
  language: TLanguage,
): Promise<LinkPreview> {
  const path = `/post/${uuid}/`;
  const post = await postsRepository.findByUuid(deps.db, uuid);
  if (post?.status !== 'published') return sitePreview(deps, language, path);
  const name =
    displayName({
      firstName: post.authorFirstName,
      lastName: post.authorLastName,
      username: post.authorUsername,
    }) || 'Mirra';
  const byline = translate(language, isVideo(post.image) ? 'preview.video_by' : 'preview.picture_by', {
    name,
  });
  const title = post.title || byline;
  const description = shortenText(
    post.prompt
      ? `${byline}: ${post.prompt}`
      : `${byline}. ${translate(language, 'preview.site_description')}`,
  );
  const imageUrl = `${deps.config.publicUrl}${routePath(routes.shares.postImage, { uuid: post.uuid })}`;
  return {
    title,
    description,
    url: postShareLink(deps.config.publicUrl, post.uuid),
    image: previewImageOf(post.image, imageUrl, title),
  };
}

/**
 * What a share page's link shows: whose picture it is and the picture (never the prompt: it was
 * not published). A revoked link says it is no longer shared, with nothing of the result.
 */
export async function shareLinkPreview(
  deps: ShareDeps,
  token: string,
  language: TLanguage,
): Promise<{ preview: LinkPreview; status: 200 | 404 | 410 }> {
  const path = sharePagePath(token);
  try {
    const found = await findLiveShare(deps, token);
    const name =
      displayName({
        firstName: found.authorFirstName,
        lastName: found.authorLastName,
        username: found.authorUsername,
      }) || 'Mirra';
    const title = translate(language, isVideo(found.result) ? 'preview.video_by' : 'preview.picture_by', {
      name,
    });
    const imageUrl = `${deps.config.publicUrl}${routePath(routes.shares.image, { token })}`;
    return {
      status: 200,
      preview: {
        title,
        description: translate(language, 'preview.site_description'),
        url: sharePageUrl(deps, token),
        image: previewImageOf(found.result, imageUrl, title),
      },
    };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error.code === 'shares.revoked') {
      return {
        status: 410,
        preview: {
          ...sitePreview(deps, language, path),
          title: translate(language, 'preview.revoked_title'),
          description: translate(language, 'preview.revoked_description'),
        },
      };
    }
    return { status: 404, preview: sitePreview(deps, language, path) };
  }
}
