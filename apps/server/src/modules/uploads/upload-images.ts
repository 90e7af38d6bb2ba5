import decodeHeic from 'heic-decode';
import sharp, { type Sharp } from 'sharp';
import { uploadTooManyPixels, uploadUnsupported } from './uploads.errors.js';
import {
  exceedsPixelLimit,
  hasTransparentPixel,
  STORED_CONTENT_TYPES,
  storedFormatFor,
  type StoredImageFormat,
  type UploadImageType,
} from './uploads.models.js';

export interface ImageLimits {
  /** Largest width × height decoded: a 50 KB PNG can claim 20000×20000 (a decompression bomb). */
  maxPixels: number;
  /** Longest side kept; larger photos are scaled down (engines never need more). */
  maxSide: number;
}

export interface NormalisedImage {
  data: Buffer;
  format: StoredImageFormat;
  contentType: string;
  width: number;
  height: number;
}

/**
 * Re-encodes an upload into what the rest of the app can rely on: orientation applied to the
 * pixels, every metadata block (EXIF with GPS, XMP, camera serials) dropped, sRGB, at most
 * `maxSide` on the long edge, JPEG quality 90 — or PNG when transparency is really used.
 *
 * HEIC is decoded by libheif compiled to WebAssembly (heic-decode): sharp's prebuilt libvips reads
 * HEIF containers but ships no HEVC decoder, for patent reasons.
 */
export async function normaliseUploadImage(
  data: Buffer,
  type: UploadImageType,
  limits: ImageLimits,
): Promise<NormalisedImage> {
  if (type === 'heic') return normaliseHeic(data, limits);
  let metadata: sharp.Metadata;
  try {
    // Only the header is read here, so sharp's own pixel guard is off: ours comes next.
    metadata = await sharp(data, { limitInputPixels: false }).metadata();
  } catch (error) {
    throw toUploadError(error, limits);
  }
  if (!metadata.width || !metadata.height) throw uploadUnsupported();
  // Checked from the header, before a single pixel is decoded.
  if (exceedsPixelLimit(metadata.width, metadata.height, limits.maxPixels)) {
    throw uploadTooManyPixels(limits.maxPixels);
  }
  const open = () => sharp(data, { limitInputPixels: limits.maxPixels, failOn: 'error' });
  return encode(open().rotate(), await usesTransparency(open, metadata, limits), limits);
}

async function usesTransparency(
  open: () => Sharp,
  metadata: sharp.Metadata,
  limits: ImageLimits,
): Promise<boolean> {
  if (!metadata.hasAlpha) return false;
  // An alpha channel is often there and fully opaque (screenshots); those are stored as JPEG.
  try {
    return !(await open().stats()).isOpaque;
  } catch (error) {
    throw toUploadError(error, limits);
  }
}

async function normaliseHeic(data: Buffer, limits: ImageLimits): Promise<NormalisedImage> {
  let images: Awaited<ReturnType<typeof decodeHeic.all>>;
  try {
    images = await decodeHeic.all({ buffer: data });
  } catch {
    throw uploadUnsupported();
  }
  try {
    const primary = images[0];
    if (!primary) throw uploadUnsupported();
    if (exceedsPixelLimit(primary.width, primary.height, limits.maxPixels)) {
      throw uploadTooManyPixels(limits.maxPixels);
    }
    let decoded: Awaited<ReturnType<typeof primary.decode>>;
    try {
      decoded = await primary.decode();
    } catch {
      throw uploadUnsupported();
    }
    const rgba = Buffer.from(decoded.data.buffer, decoded.data.byteOffset, decoded.data.byteLength);
    // libheif has applied the container's rotation and mirroring already.
    const pipeline = sharp(rgba, { raw: { width: decoded.width, height: decoded.height, channels: 4 } });
    return await encode(pipeline, hasTransparentPixel(rgba), limits);
  } finally {
    images.dispose();
  }
}

async function encode(
  pipeline: Sharp,
  isTransparent: boolean,
  limits: ImageLimits,
): Promise<NormalisedImage> {
  const format = storedFormatFor(isTransparent);
  let resized = pipeline.resize({
    width: limits.maxSide,
    height: limits.maxSide,
    fit: 'inside',
    withoutEnlargement: true,
  });
  resized =
    format === 'png'
      ? resized.png()
      : resized.flatten({ background: '#ffffff' }).jpeg({ quality: 90, chromaSubsampling: '4:2:0' });
  try {
    const { data, info } = await resized.toBuffer({ resolveWithObject: true });
    return {
      data,
      format,
      contentType: STORED_CONTENT_TYPES[format],
      width: info.width,
      height: info.height,
    };
  } catch (error) {
    throw toUploadError(error, limits);
  }
}

function toUploadError(error: unknown, limits: ImageLimits) {
  const message = (error as Error).message ?? '';
  // sharp's own guard, for images whose header understated their size.
  if (/pixel limit/i.test(message)) return uploadTooManyPixels(limits.maxPixels);
  return uploadUnsupported();
}
