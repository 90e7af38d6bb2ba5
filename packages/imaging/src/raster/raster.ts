import sharp from 'sharp';
import { type Rng, softNoise } from './random.js';

/**
 * Raw pixels between processing steps. sharp runs the operations of one pipeline in its own fixed
 * order (resize before blur, and so on), so every step that must happen after another is its own
 * pipeline over raw pixels, and the steps sharp has no operation for are plain loops here.
 */
export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 3 | 4;
}

/** Called between processing stages: reports progress and throws if the job was cancelled. */
export type Checkpoint = () => Promise<void>;

/** A single-channel plane (luminance, a mask, an edge map) in 0–255. */
export interface Plane {
  data: Uint8Array;
  width: number;
  height: number;
}

// libvips may use both cores; its operation cache only grows memory in a long-lived worker.
sharp.cache(false);

/** A readable but bounded decode: uploads are normalised already, this is the last line of defence. */
export const MAX_INPUT_PIXELS = 50_000_000;

export async function rawFrom(image: sharp.Sharp): Promise<RawImage> {
  const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels as RawImage['channels'] };
}

export function toSharp(image: RawImage | Plane): sharp.Sharp {
  const channels = 'channels' in image ? image.channels : 1;
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels } });
}

/** Decodes any supported photo to 3-channel sRGB, transparency flattened onto white, longest side capped. */
export async function decodePhoto(data: Buffer, maxSide?: number): Promise<RawImage> {
  let pipeline = sharp(data, { limitInputPixels: MAX_INPUT_PIXELS })
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb');
  if (maxSide) pipeline = pipeline.resize(maxSide, maxSide, { fit: 'inside', withoutEnlargement: true });
  const raw = await rawFrom(pipeline.removeAlpha());
  return raw;
}

export function encodePng(image: RawImage): sharp.Sharp {
  // zlib level 4 is twice as fast as 6 for under 1% more bytes: it matters for 4096 px upscales.
  const large = image.width * image.height > 4_000_000;
  return toSharp(image).png({ compressionLevel: large ? 4 : 6, adaptiveFiltering: false });
}

/**
 * An output buffer and a clamping view of the same memory. Writing 260 or -5 into a Buffer wraps
 * around (to 4 or 251); through the clamped view it saturates and rounds, which is what pixels need.
 */
export function clampedBuffer(length: number): [Uint8ClampedArray, Buffer] {
  const buffer = Buffer.alloc(length);
  return [new Uint8ClampedArray(buffer.buffer, buffer.byteOffset, length), buffer];
}

export function luminance(image: RawImage): Plane {
  const { data, width, height, channels } = image;
  const out = new Uint8Array(width * height);
  for (let i = 0, p = 0; i < out.length; i++, p += channels) {
    out[i] = channels === 1 ? data[p]! : (77 * data[p]! + 150 * data[p + 1]! + 29 * data[p + 2]!) >> 8;
  }
  return { data: out, width, height };
}

export async function blurPlane(plane: Plane, sigma: number): Promise<Plane> {
  if (sigma < 0.3) return plane;
  // Without 'b-w' sharp hands a one-channel input back as three channels.
  const { data } = await toSharp(plane)
    .blur(sigma)
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, data.length),
    width: plane.width,
    height: plane.height,
  };
}

export async function blurImage(image: RawImage, sigma: number): Promise<RawImage> {
  if (sigma < 0.3) return image;
  return rawFrom(toSharp(image).blur(sigma));
}

export async function medianImage(image: RawImage, size: number): Promise<RawImage> {
  return rawFrom(toSharp(image).median(size));
}

/**
 * Box Kuwahara filter: each pixel takes the mean colour of whichever of its four overlapping
 * quadrants has the least luminance variance. Flat areas go flat, edges stay put: the basis of the
 * painted looks. Summed-area tables make it O(pixels) whatever the radius.
 */
export function kuwahara(image: RawImage, radius: number): RawImage {
  const { width, height, data } = image;
  const stride = width + 1;
  const size = stride * (height + 1);
  const sumL = new Float64Array(size);
  const sumL2 = new Float64Array(size);
  const sumR = new Float64Array(size);
  const sumG = new Float64Array(size);
  const sumB = new Float64Array(size);
  for (let y = 0; y < height; y++) {
    let rowL = 0;
    let rowL2 = 0;
    let rowR = 0;
    let rowG = 0;
    let rowB = 0;
    for (let x = 0; x < width; x++) {
      const p = (y * width + x) * 3;
      const r = data[p]!;
      const g = data[p + 1]!;
      const b = data[p + 2]!;
      const l = 0.299 * r + 0.587 * g + 0.114 * b;
      rowL += l;
      rowL2 += l * l;
      rowR += r;
      rowG += g;
      rowB += b;
      const i = (y + 1) * stride + x + 1;
      const above = i - stride;
      sumL[i] = sumL[above]! + rowL;
      sumL2[i] = sumL2[above]! + rowL2;
      sumR[i] = sumR[above]! + rowR;
      sumG[i] = sumG[above]! + rowG;
      sumB[i] = sumB[above]! + rowB;
    }
  }
  const [out, outBuffer] = clampedBuffer(data.length);
  const boxSum = (table: Float64Array, x0: number, y0: number, x1: number, y1: number) =>
    table[y1 * stride + x1]! - table[y0 * stride + x1]! - table[y1 * stride + x0]! + table[y0 * stride + x0]!;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let bestVariance = Infinity;
      let bestR = 0;
      let bestG = 0;
      let bestB = 0;
      for (let q = 0; q < 4; q++) {
        // Quadrant bounds in summed-area coordinates (exclusive upper corner), clamped to the image.
        const x0 = q & 1 ? x : Math.max(0, x - radius);
        const x1 = q & 1 ? Math.min(width, x + radius + 1) : x + 1;
        const y0 = q & 2 ? y : Math.max(0, y - radius);
        const y1 = q & 2 ? Math.min(height, y + radius + 1) : y + 1;
        const n = (x1 - x0) * (y1 - y0);
        const mean = boxSum(sumL, x0, y0, x1, y1) / n;
        const variance = boxSum(sumL2, x0, y0, x1, y1) / n - mean * mean;
        if (variance < bestVariance) {
          bestVariance = variance;
          bestR = boxSum(sumR, x0, y0, x1, y1) / n;
          bestG = boxSum(sumG, x0, y0, x1, y1) / n;
          bestB = boxSum(sumB, x0, y0, x1, y1) / n;
        }
      }
      const p = (y * width + x) * 3;
      out[p] = bestR;
      out[p + 1] = bestG;
      out[p + 2] = bestB;
    }
  }
  return { data: outBuffer, width, height, channels: 3 };
}

/**
 * Extended difference of Gaussians (Winnemöller's XDoG): an ink line drawing from luminance. Returns
 * a plane where 255 is paper and darker is ink. Smoother and more hand-drawn than Sobel thresholds,
 * and `sigma` sets how fine a detail still gets a line.
 */
export async function inkLines(
  gray: Plane,
  options: { sigma: number; k?: number; tau?: number; epsilon?: number; phi?: number },
): Promise<Plane> {
  const k = options.k ?? 1.6;
  const tau = options.tau ?? 0.98;
  const epsilon = options.epsilon ?? 0.1;
  const phi = options.phi ?? 50;
  const [narrow, wide] = await Promise.all([
    blurPlane(gray, options.sigma),
    blurPlane(gray, options.sigma * k),
  ]);
  const out = new Uint8Array(gray.data.length);
  for (let i = 0; i < out.length; i++) {
    const d = (narrow.data[i]! - tau * wide.data[i]!) / 255;
    out[i] = d >= epsilon ? 255 : Math.max(0, Math.round(255 * (1 + Math.tanh(phi * (d - epsilon)))));
  }
  return { data: out, width: gray.width, height: gray.height };
}

/** Sobel gradient magnitude, 0–255. */
export function sobel(gray: Plane): Plane {
  const { data, width, height } = gray;
  const out = new Uint8Array(data.length);
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const tl = data[i - width - 1]!;
      const t = data[i - width]!;
      const tr = data[i - width + 1]!;
      const l = data[i - 1]!;
      const r = data[i + 1]!;
      const bl = data[i + width - 1]!;
      const b = data[i + width]!;
      const br = data[i + width + 1]!;
      const gx = tr + 2 * r + br - tl - 2 * l - bl;
      const gy = bl + 2 * b + br - tl - 2 * t - tr;
      out[i] = Math.min(255, Math.sqrt(gx * gx + gy * gy) / 4);
    }
  }
  return { data: out, width, height };
}

/** Multiplies every colour by a 0–255 plane (255 keeps it): how ink and shading go onto colour. */
export function multiplyPlane(image: RawImage, plane: Plane, strength = 1): RawImage {
  const [out, outBuffer] = clampedBuffer(image.data.length);
  for (let i = 0, p = 0; i < plane.data.length; i++, p += 3) {
    const f = 1 - strength * (1 - plane.data[i]! / 255);
    out[p] = image.data[p]! * f;
    out[p + 1] = image.data[p + 1]! * f;
    out[p + 2] = image.data[p + 2]! * f;
  }
  return { ...image, data: outBuffer };
}

/** Per-pixel mix: mask 255 takes `top`, 0 keeps `base`. */
export function mixByMask(base: RawImage, top: RawImage, mask: Plane): RawImage {
  const [out, outBuffer] = clampedBuffer(base.data.length);
  for (let i = 0, p = 0; i < mask.data.length; i++, p += 3) {
    const t = mask.data[i]! / 255;
    out[p] = base.data[p]! + (top.data[p]! - base.data[p]!) * t;
    out[p + 1] = base.data[p + 1]! + (top.data[p + 1]! - base.data[p + 1]!) * t;
    out[p + 2] = base.data[p + 2]! + (top.data[p + 2]! - base.data[p + 2]!) * t;
  }
  return { ...base, data: outBuffer };
}

/** Darkens towards the corners, like a lens: draws the eye to the middle where the subject is. */
export function vignette(image: RawImage, strength: number): RawImage {
  const { width, height } = image;
  const [out, outBuffer] = clampedBuffer(image.data.length);
  const cx = width / 2;
  const cy = height / 2;
  const norm = 1 / (cx * cx + cy * cy);
  for (let y = 0; y < height; y++) {
    const dy = (y - cy) * (y - cy);
    for (let x = 0; x < width; x++) {
      const d = ((x - cx) * (x - cx) + dy) * norm;
      const f = 1 - strength * d * d * 1.6;
      const p = (y * width + x) * 3;
      out[p] = image.data[p]! * f;
      out[p + 1] = image.data[p + 1]! * f;
      out[p + 2] = image.data[p + 2]! * f;
    }
  }
  return { ...image, data: outBuffer };
}

/** Adds monochrome film grain (same offset to all channels so it never tints). */
export function addGrain(image: RawImage, rng: Rng, amount: number): RawImage {
  const [out, outBuffer] = clampedBuffer(image.data.length);
  for (let p = 0; p < image.data.length; p += 3) {
    const n = softNoise(rng) * amount;
    out[p] = image.data[p]! + n;
    out[p + 1] = image.data[p + 1]! + n;
    out[p + 2] = image.data[p + 2]! + n;
  }
  return { ...image, data: outBuffer };
}

/** Colour reduction by libimagequant (through sharp's palette PNG), without dithering: flat areas. */
export async function quantise(image: RawImage, colours: number): Promise<RawImage> {
  const png = await toSharp(image).png({ palette: true, colours, dither: 0, effort: 4 }).toBuffer();
  return rawFrom(sharp(png).toColourspace('srgb').removeAlpha());
}

export function countDistinctColours(image: RawImage): number {
  const seen = new Set<number>();
  const { data, channels } = image;
  for (let p = 0; p < data.length; p += channels) {
    seen.add(channels === 1 ? data[p]! : (data[p]! << 16) | (data[p + 1]! << 8) | data[p + 2]!);
  }
  return seen.size;
}

/** Darkest value in a (2r+1)² square: thickens ink lines (a dilation of the dark). */
export function minFilter(plane: Plane, radius: number): Plane {
  if (radius < 1) return plane;
  const { width, height } = plane;
  const horizontal = new Uint8Array(plane.data.length);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      let min = 255;
      const from = Math.max(0, x - radius);
      const to = Math.min(width - 1, x + radius);
      for (let i = from; i <= to; i++) min = Math.min(min, plane.data[row + i]!);
      horizontal[row + x] = min;
    }
  }
  const out = new Uint8Array(plane.data.length);
  for (let y = 0; y < height; y++) {
    const from = Math.max(0, y - radius);
    const to = Math.min(height - 1, y + radius);
    for (let x = 0; x < width; x++) {
      let min = 255;
      for (let j = from; j <= to; j++) min = Math.min(min, horizontal[j * width + x]!);
      out[y * width + x] = min;
    }
  }
  return { data: out, width, height };
}

/**
 * Three passes of a running-sum box blur ≈ a Gaussian of sigma ≈ radius, on float data. For fields
 * that are not pixels (gradients, orientation tensors), where sharp's 8-bit pipeline would clip.
 */
export function boxBlurFloat(
  data: Float32Array,
  width: number,
  height: number,
  radius: number,
): Float32Array {
  const r = Math.max(1, Math.round(radius));
  let current = data;
  const scratch = new Float32Array(data.length);
  for (let pass = 0; pass < 3; pass++) {
    const next = new Float32Array(data.length);
    boxLine(current, scratch, width, height, r, 1, width);
    boxLine(scratch, next, height, width, r, width, 1);
    current = next;
  }
  return current;
}

/** One box pass along lines: `count` lines of `length` samples, `step` apart, lines `lineStride` apart. */
function boxLine(
  source: Float32Array,
  target: Float32Array,
  length: number,
  count: number,
  r: number,
  step: number,
  lineStride: number,
) {
  const norm = 1 / (2 * r + 1);
  for (let line = 0; line < count; line++) {
    const base = line * lineStride;
    const at = (i: number) => source[base + Math.min(length - 1, Math.max(0, i)) * step]!;
    let sum = 0;
    for (let i = -r; i <= r; i++) sum += at(i);
    for (let i = 0; i < length; i++) {
      target[base + i * step] = sum * norm;
      sum += at(i + r + 1) - at(i - r);
    }
  }
}
