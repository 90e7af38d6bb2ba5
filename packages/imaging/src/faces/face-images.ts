import sharp from 'sharp';
import { alignmentTransform } from './face-profile.models.js';
import type { FaceAnalysis } from './faces.types.js';
import { type RgbImage, warpAffineImage } from './face-warp.models.js';

/**
 * Decodes a photo to RGB at `width`×`height` exactly — the size its face analysis refers to — or,
 * with `maxSide`, at up to that many pixels on the long side (then scale the analysis' points by
 * `image.width / analysis.image.width`).
 */
export async function decodeRgb(
  photo: Buffer,
  size: { width: number; height: number } | { maxSide: number },
): Promise<RgbImage> {
  let pipeline = sharp(photo, { limitInputPixels: 100_000_000 })
    .rotate()
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb');
  pipeline =
    'maxSide' in size
      ? pipeline.resize(size.maxSide, size.maxSide, { fit: 'inside', withoutEnlargement: true })
      : pipeline.resize(size.width, size.height, { fit: 'fill' });
  const { data, info } = await pipeline.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, data.length),
    width: info.width,
    height: info.height,
  };
}

export function encodeRgb(image: RgbImage): sharp.Sharp {
  return sharp(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.length), {
    raw: { width: image.width, height: image.height, channels: 3 },
  });
}

/**
 * The aligned crop of a photo's main face: upright, eyes level at fixed places, `size`² (see
 * alignmentTransform). What the local profile is built around and what a provider would train a
 * LoRA on. Null when the photo has no face.
 */
export async function alignedFaceCrop(
  photo: Buffer,
  analysis: FaceAnalysis,
  size: number,
): Promise<Buffer | null> {
  const face = analysis.faces[0];
  if (!face || face.mesh.length === 0) return null;
  const image = await decodeRgb(photo, { width: analysis.image.width, height: analysis.image.height });
  const crop = warpAffineImage(image, alignmentTransform(face.mesh, size), size, size);
  return encodeRgb(crop).png().toBuffer();
}
