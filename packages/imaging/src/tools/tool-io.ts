import sharp from 'sharp';
import { type EngineNote, UnusableInputError } from '../pipeline.types.js';
import { LOCAL_ENGINE_DESCRIPTIONS, withLocalEngineLabel } from '../raster/image-label.js';
import { MAX_INPUT_PIXELS } from '../raster/raster.js';

/**
 * Decoding, progress and encoding shared by the upscale and restore tools. Their work runs in a
 * worker thread whose port also carries progress and the stop message, so every step awaits a
 * macrotask: the thread's other messages are served between tiles.
 */

export interface LocalToolOptions {
  /** The share done, 0–1, after each step or tile. */
  onProgress?: (fraction: number) => void;
  /** Aborting stops the work at the next tile or step, throwing the signal's reason. */
  signal?: AbortSignal;
}

/** One encoded picture and what was done to it. */
export interface LocalToolResult {
  data: Buffer;
  contentType: 'image/png' | 'image/jpeg';
  width: number;
  height: number;
  notes: EngineNote[];
}

/** Reports progress, yields to the event loop and throws if the work was stopped. */
export function stepper(options: LocalToolOptions): (fraction: number) => Promise<void> {
  return async (fraction) => {
    options.signal?.throwIfAborted();
    options.onProgress?.(Math.min(1, Math.max(0, fraction)));
    await new Promise((resolve) => setImmediate(resolve));
    options.signal?.throwIfAborted();
  };
}

/** RGB bytes and, when the picture has transparency, its alpha as a separate plane. */
export interface DecodedPicture {
  rgb: Buffer;
  alpha: Buffer | null;
  width: number;
  height: number;
}

export async function decodeWithAlpha(data: Buffer): Promise<DecodedPicture> {
  try {
    const input = sharp(data, { limitInputPixels: MAX_INPUT_PIXELS });
    const metadata = await input.metadata();
    // Colour under fully transparent pixels is whatever the maker left there; it is kept as is
    // (not flattened), so a cut-out's edge does not pick up a white fringe when enlarged.
    const { data: pixels, info } = await input
      .clone()
      .toColourspace('srgb')
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const count = info.width * info.height;
    const rgb = Buffer.alloc(count * 3);
    const alpha = metadata.hasAlpha ? Buffer.alloc(count) : null;
    for (let i = 0; i < count; i++) {
      rgb[i * 3] = pixels[i * 4]!;
      rgb[i * 3 + 1] = pixels[i * 4 + 1]!;
      rgb[i * 3 + 2] = pixels[i * 4 + 2]!;
      if (alpha) alpha[i] = pixels[i * 4 + 3]!;
    }
    return { rgb, alpha: alpha && alpha.some((value) => value < 255) ? alpha : null, ...size(info) };
  } catch (error) {
    throw new UnusableInputError(
      'unreadable_photo',
      `The photo could not be read: ${(error as Error).message}`,
    );
  }
}

const size = (info: { width: number; height: number }) => ({ width: info.width, height: info.height });

/** Lanczos resize of RGB bytes; `sharpen` adds the light unsharp mask the editor's upscale uses. */
export async function resizeRgb(
  image: { data: Uint8Array; width: number; height: number },
  width: number,
  height: number,
  sharpen: boolean,
): Promise<{ data: Buffer; width: number; height: number }> {
  let pipeline = sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } }).resize(
    width,
    height,
    { kernel: sharp.kernel.lanczos3, fit: 'fill' },
  );
  if (sharpen) pipeline = pipeline.sharpen({ sigma: 0.8, m1: 0.3, m2: 1.5 });
  return { data: await pipeline.raw().toBuffer(), width, height };
}

/** Lanczos resize of a one-channel plane (an alpha). */
export async function resizePlane(
  plane: Uint8Array,
  from: { width: number; height: number },
  width: number,
  height: number,
): Promise<Buffer> {
  return (
    sharp(plane, { raw: { width: from.width, height: from.height, channels: 1 } })
      .resize(width, height, { kernel: sharp.kernel.lanczos3, fit: 'fill' })
      // Without 'b-w' sharp hands a one-channel input back as three channels.
      .toColourspace('b-w')
      .raw()
      .toBuffer()
  );
}

/** JPEG quality of opaque results: photographs, where PNG would be five times the bytes. */
const JPEG_QUALITY = 92;

/**
 * An opaque result as JPEG (full chroma resolution: enlarged detail is the point), one with
 * transparency as PNG; both labelled as made by the local engine.
 */
export async function encodeResult(
  picture: DecodedPicture,
  tool: 'upscale' | 'restore',
): Promise<{ data: Buffer; contentType: 'image/png' | 'image/jpeg'; width: number; height: number }> {
  const { width, height, rgb, alpha } = picture;
  let pipeline = sharp(rgb, { raw: { width, height, channels: 3 } });
  if (alpha) pipeline = pipeline.joinChannel(alpha, { raw: { width, height, channels: 1 } });
  const large = width * height > 4_000_000;
  pipeline = alpha
    ? pipeline.png({ compressionLevel: large ? 4 : 6, adaptiveFiltering: false })
    : pipeline.jpeg({ quality: JPEG_QUALITY, chromaSubsampling: '4:4:4' });
  const data = await withLocalEngineLabel(pipeline, LOCAL_ENGINE_DESCRIPTIONS[tool]).toBuffer();
  return { data, contentType: alpha ? 'image/png' : 'image/jpeg', width, height };
}
