import type { StoredPostImage } from '../../shared/db/json-columns.js';

/**
 * What a messenger or a social network shows for a link (Open Graph and Twitter card tags, read
 * from the HTML the server answers: their bots run no JavaScript).
 */
export interface LinkPreview {
  title: string;
  description: string;
  /** The page's own address (og:url). */
  url: string;
  /** A lasting, public address of the picture (bots fetch it later, some days later). */
  image: { url: string; width: number; height: number; alt: string } | null;
}

/** The widest a preview picture is made: Open Graph asks for 1200 px; larger only costs bytes. */
export const PREVIEW_IMAGE_MAX_WIDTH = 1200;
/** Descriptions longer than this are cut: previews show two or three lines. */
const DESCRIPTION_MAX_LENGTH = 200;

/**
 * The stored still a preview is made from: the widest WebP rendition up to the preview's width
 * (a video's renditions are its poster frame), else a picture's original; none for a video
 * without a poster.
 */
export function previewStillOf(
  image: Pick<StoredPostImage, 'original' | 'variants'>,
): { key: string; width: number; height: number } | null {
  const fitting = image.variants
    .filter((variant) => variant.width <= PREVIEW_IMAGE_MAX_WIDTH)
    .sort((a, b) => b.width - a.width)[0];
  if (fitting) return fitting;
  if (image.original.contentType.startsWith('image/')) return image.original;
  return [...image.variants].sort((a, b) => a.width - b.width)[0] ?? null;
}

/** The size the preview JPEG comes out at: the still, narrowed to the preview's width. */
export function previewSizeOf(still: { width: number; height: number }): { width: number; height: number } {
  if (still.width <= PREVIEW_IMAGE_MAX_WIDTH) return { width: still.width, height: still.height };
  return {
    width: PREVIEW_IMAGE_MAX_WIDTH,
    height: Math.round((still.height * PREVIEW_IMAGE_MAX_WIDTH) / still.width),
  };
}

/** Text cut at a word near `max` characters, with an ellipsis; whitespace runs become one space. */
export function shortenText(text: string, max = DESCRIPTION_MAX_LENGTH): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Text safe inside an HTML attribute value in double quotes (and in element content). */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/**
 * The head tags of a link preview: title, description, Open Graph and Twitter card (a large image
 * card when there is a picture). Every value is escaped: titles and prompts are people's text.
 */
export function previewTags(preview: LinkPreview, language: string): string {
  const meta = (attribute: 'property' | 'name', key: string, value: string) =>
    `<meta ${attribute}="${key}" content="${escapeHtml(value)}" />`;
  const tags = [
    `<title>${escapeHtml(preview.title)}</title>`,
    meta('name', 'description', preview.description),
    meta('property', 'og:site_name', 'Mirra'),
    meta('property', 'og:type', 'website'),
    meta('property', 'og:locale', language),
    meta('property', 'og:url', preview.url),
    meta('property', 'og:title', preview.title),
    meta('property', 'og:description', preview.description),
    meta('name', 'twitter:card', preview.image ? 'summary_large_image' : 'summary'),
    meta('name', 'twitter:title', preview.title),
    meta('name', 'twitter:description', preview.description),
  ];
  if (preview.image) {
    tags.push(
      meta('property', 'og:image', preview.image.url),
      meta('property', 'og:image:type', 'image/jpeg'),
      meta('property', 'og:image:width', String(preview.image.width)),
      meta('property', 'og:image:height', String(preview.image.height)),
      meta('property', 'og:image:alt', preview.image.alt),
      meta('name', 'twitter:image', preview.image.url),
      meta('name', 'twitter:image:alt', preview.image.alt),
    );
  }
  return tags.join('\n    ');
}

/**
 * The web app's page (its index.html) with a preview's tags in its head, in `language`: the
 * template's own title and description give way to the preview's.
 */
export function pageWithPreview(template: string, preview: LinkPreview, language: string): string {
  const head = template
    .replace(/<title>[^<]*<\/title>\s*/, '')
    .replace(/<meta name="description"[^>]*>\s*/, '')
    .replace(/<html lang="[^"]*"/, `<html lang="${escapeHtml(language)}"`);
  // A function, so `$` in people's text is never read as a replacement pattern.
  return head.replace('</head>', () => `    ${previewTags(preview, language)}\n  </head>`);
}
