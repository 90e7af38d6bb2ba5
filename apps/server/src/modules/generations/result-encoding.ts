import sharp from 'sharp';

/**
 * The form a result's original is kept and downloaded in. Engines hand over lossless PNG; a
 * photo-like picture as PNG is 3–5 times the size of a JPEG at quality 92 that nobody can tell
 * apart, so opaque PNGs become that JPEG (full-resolution colour, no chroma subsampling). PNG
 * stays only where transparency is really used; other formats (JPEG, WebP, video) are kept as
 * they come. Metadata (the engine's label) is kept.
 */
export async function encodeResultOriginal(
  data: Buffer,
  contentType: string,
): Promise<{ data: Buffer; contentType: string }> {
  if (contentType !== 'image/png') return { data, contentType };
  const image = sharp(data, { limitInputPixels: false });
  const { hasAlpha } = await image.metadata();
  if (hasAlpha && !(await image.stats()).isOpaque) return { data, contentType };
  const jpeg = await sharp(data, { limitInputPixels: false })
    .flatten({ background: '#ffffff' })
    // The engine's label (EXIF ImageDescription: which engine made it, and how) goes along.
    .keepMetadata()
    .jpeg({ quality: 92, chromaSubsampling: '4:4:4', mozjpeg: true })
    .toBuffer();
  return { data: jpeg, contentType: 'image/jpeg' };
}
