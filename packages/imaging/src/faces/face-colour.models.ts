/**
 * Colour statistics of a face and its photo matched in CIE Lab: global and local mean/spread
 * transfer, skin selection and chroma scaling, so a warped face takes on its new photo's colour and
 * light. Pure functions over Float32Array pixel buffers.
 */

const WHITE = [0.95047, 1, 1.08883] as const;
const EPSILON = (6 / 29) ** 3;
const KAPPA = 3 * (6 / 29) ** 2;

const toLinear = (value: number) => {
  const c = value / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};
const fromLinear = (c: number) =>
  255 * (c <= 0.0031308 ? 12.92 * c : 1.055 * Math.max(c, 0) ** (1 / 2.4) - 0.055);
const labF = (t: number) => (t > EPSILON ? Math.cbrt(t) : t / KAPPA + 4 / 29);
const labFInverse = (t: number) => (t > 6 / 29 ? t * t * t : KAPPA * (t - 4 / 29));

/** sRGB (0–255) → CIE L*a*b* (D65), written into `out[offset..offset+2]`. */
export function rgbToLab(r: number, g: number, b: number, out: Float32Array, offset: number): void {
  const lr = toLinear(r);
  const lg = toLinear(g);
  const lb = toLinear(b);
  const x = labF((0.4124564 * lr + 0.3575761 * lg + 0.1804375 * lb) / WHITE[0]);
  const y = labF(0.2126729 * lr + 0.7151522 * lg + 0.072175 * lb);
  const z = labF((0.0193339 * lr + 0.119192 * lg + 0.9503041 * lb) / WHITE[2]);
  out[offset] = 116 * y - 16;
  out[offset + 1] = 500 * (x - y);
  out[offset + 2] = 200 * (y - z);
}

/** CIE L*a*b* (D65) → sRGB (0–255, not clamped), written into `out[offset..offset+2]`. */
export function labToRgb(l: number, a: number, b: number, out: Float32Array, offset: number): void {
  const fy = (l + 16) / 116;
  const x = WHITE[0] * labFInverse(fy + a / 500);
  const y = labFInverse(fy);
  const z = WHITE[2] * labFInverse(fy - b / 200);
  out[offset] = fromLinear(3.2404542 * x - 1.5371385 * y - 0.4985314 * z);
  out[offset + 1] = fromLinear(-0.969266 * x + 1.8760108 * y + 0.041556 * z);
  out[offset + 2] = fromLinear(0.0556434 * x - 0.2040259 * y + 1.0572252 * z);
}

export interface ColourStats {
  mean: [number, number, number];
  std: [number, number, number];
  count: number;
}

/** Mean and standard deviation per Lab channel of the RGB pixels where `mask` is set. */
export function labStats(pixels: Float32Array | Uint8Array, mask: Uint8Array): ColourStats {
  const lab = new Float32Array(3);
  const sum = [0, 0, 0];
  const squares = [0, 0, 0];
  let count = 0;
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i]) continue;
    rgbToLab(pixels[i * 3]!, pixels[i * 3 + 1]!, pixels[i * 3 + 2]!, lab, 0);
    for (let c = 0; c < 3; c++) {
      sum[c]! += lab[c]!;
      squares[c]! += lab[c]! * lab[c]!;
    }
    count++;
  }
  const mean = sum.map((s) => (count ? s / count : 0)) as ColourStats['mean'];
  const std = squares.map((s, c) =>
    count ? Math.sqrt(Math.max(0, s / count - mean[c]! * mean[c]!)) : 0,
  ) as ColourStats['std'];
  return { mean, std, count };
}

/**
 * Reinhard colour transfer: the pixels where `apply` is set are moved, channel by channel in Lab,
 * from the `from` statistics to the `to` ones (mean shifted, spread scaled). The scale is kept
 * within [1/maxRatio, maxRatio] so a flat or oddly lit target cannot wash a face out.
 */
export function transferColour(
  pixels: Float32Array,
  apply: Uint8Array,
  from: ColourStats,
  to: ColourStats,
  maxRatio = 1.6,
): void {
  if (!from.count || !to.count) return;
  const ratio = from.std.map((s, c) => {
    const r = s > 1e-3 ? to.std[c]! / s : 1;
    return Math.min(maxRatio, Math.max(1 / maxRatio, r));
  });
  const lab = new Float32Array(3);
  for (let i = 0; i < apply.length; i++) {
    if (!apply[i]) continue;
    rgbToLab(pixels[i * 3]!, pixels[i * 3 + 1]!, pixels[i * 3 + 2]!, lab, 0);
    for (let c = 0; c < 3; c++) lab[c] = (lab[c]! - from.mean[c]!) * ratio[c]! + to.mean[c]!;
    labToRgb(lab[0]!, lab[1]!, lab[2]!, pixels, i * 3);
  }
}

/** sRGB → linear light at every 1/16 of a level: whole images convert without a power per value. */
const LINEAR_STEPS = 16;
const LINEAR = Float32Array.from({ length: 255 * LINEAR_STEPS + 1 }, (_, i) => toLinear(i / LINEAR_STEPS));
const linearOf = (value: number) =>
  LINEAR[Math.round((value < 0 ? 0 : value > 255 ? 255 : value) * LINEAR_STEPS)]!;

/** CIE Lab of every pixel of an RGB buffer (three floats a pixel); as rgbToLab, to 1/16 of a level. */
export function toLab(pixels: Float32Array | Uint8Array): Float32Array {
  const lab = new Float32Array(pixels.length);
  for (let i = 0; i < pixels.length; i += 3) {
    const lr = linearOf(pixels[i]!);
    const lg = linearOf(pixels[i + 1]!);
    const lb = linearOf(pixels[i + 2]!);
    const x = labF((0.4124564 * lr + 0.3575761 * lg + 0.1804375 * lb) / WHITE[0]);
    const y = labF(0.2126729 * lr + 0.7151522 * lg + 0.072175 * lb);
    const z = labF((0.0193339 * lr + 0.119192 * lg + 0.9503041 * lb) / WHITE[2]);
    lab[i] = 116 * y - 16;
    lab[i + 1] = 500 * (x - y);
    lab[i + 2] = 200 * (y - z);
  }
  return lab;
}

const median = (values: number[]) => {
  values.sort((a, b) => a - b);
  return values[values.length >> 1] ?? 0;
};

/**
 * Which `candidates` pixels are skin, judged against the face itself: the typical colour of the
 * `face` pixels (the median in Lab) and their spread (median absolute deviation). Eyes, brows,
 * lips, teeth, glasses, hair and background differ from that in lightness or hue and are left out,
 * so colour statistics taken over skin say what the light and the skin tone are, not what the
 * person wears. Works on greyscale photos too (everything is judged relative to the face).
 */
export function skinPixels(lab: Float32Array, face: Uint8Array, candidates: Uint8Array): Uint8Array {
  let count = 0;
  for (let i = 0; i < face.length; i++) if (face[i]) count++;
  // A few thousand pixels spread over the face tell its typical colour as well as all of them.
  const stride = Math.max(1, Math.floor(count / 4000));
  const channels: number[][] = [[], [], []];
  for (let i = 0, k = 0; i < face.length; i++) {
    if (!face[i] || k++ % stride) continue;
    for (let c = 0; c < 3; c++) channels[c]!.push(lab[i * 3 + c]!);
  }
  const skin = new Uint8Array(face.length);
  if (!channels[0]!.length) return skin;
  const centre = channels.map((values) => median(values));
  const spread = channels.map((values, c) => 1.4826 * median(values.map((v) => Math.abs(v - centre[c]!))));
  // Shadowed skin is darker rather than lighter; chroma stays close to the face's own.
  const darkest = centre[0]! - Math.max(18, 2.5 * spread[0]!);
  const lightest = centre[0]! + Math.max(12, 2 * spread[0]!);
  const hue = [0, Math.max(5, 2.5 * spread[1]!), Math.max(5, 2.5 * spread[2]!)];
  for (let i = 0; i < candidates.length; i++) {
    if (!candidates[i]) continue;
    const l = lab[i * 3]!;
    if (l < darkest || l > lightest) continue;
    if (Math.abs(lab[i * 3 + 1]! - centre[1]!) > hue[1]!) continue;
    if (Math.abs(lab[i * 3 + 2]! - centre[2]!) > hue[2]!) continue;
    skin[i] = 1;
  }
  return skin;
}

/** Running-sum box blur of one plane in place (edges clamp to the nearest sample). */
function boxBlurPlane(plane: Float32Array, width: number, height: number, radius: number): void {
  const line = new Float32Array(Math.max(width, height));
  const scale = 1 / (2 * radius + 1);
  const blurLine = (start: number, step: number, length: number) => {
    for (let k = 0, j = start; k < length; k++, j += step) line[k] = plane[j]!;
    const last = length - 1;
    let sum = 0;
    for (let k = -radius; k <= radius; k++) sum += line[k < 0 ? 0 : k > last ? last : k]!;
    for (let k = 0, j = start; k < length; k++, j += step) {
      plane[j] = sum * scale;
      const enter = k + radius + 1;
      const leave = k - radius;
      sum += line[enter > last ? last : enter]! - line[leave < 0 ? 0 : leave]!;
    }
  };
  for (let y = 0; y < height; y++) blurLine(y * width, 1, width);
  for (let x = 0; x < width; x++) blurLine(x, width, height);
}

/**
 * The local mean colour (Lab, three floats a pixel) of the `weights` pixels around every pixel: a Gaussian-like window
 * (three box passes, about `radius`·1.7 pixels of standard deviation) over only the weighted
 * pixels (normalised convolution), so a face's shading from its light is followed while eyes,
 * glasses or background outside the weights do not count. Where the window holds few weighted
 * pixels, the mean leans towards the weighted pixels' overall mean. Only `channels` are computed
 * (the others are left 0).
 */
export function localMeanColour(
  values: Float32Array,
  weights: Uint8Array,
  width: number,
  height: number,
  radius: number,
  channels: readonly number[] = [0, 1, 2],
): Float32Array {
  const n = width * height;
  const r = Math.max(1, Math.round(radius));
  const density = new Float32Array(n);
  const overall = [0, 0, 0];
  let count = 0;
  for (let i = 0; i < n; i++) {
    if (!weights[i]) continue;
    density[i] = 1;
    for (let c = 0; c < 3; c++) overall[c]! += values[i * 3 + c]!;
    count++;
  }
  for (let c = 0; c < 3; c++) overall[c] = count ? overall[c]! / count : 0;
  for (let p = 0; p < 3; p++) boxBlurPlane(density, width, height, r);
  const result = new Float32Array(n * 3);
  const plane = new Float32Array(n);
  // Below this share of weighted pixels in the window, the overall mean takes over smoothly.
  const prior = 0.05;
  for (const c of channels) {
    for (let i = 0; i < n; i++) plane[i] = weights[i] ? values[i * 3 + c]! : 0;
    for (let p = 0; p < 3; p++) boxBlurPlane(plane, width, height, r);
    for (let i = 0; i < n; i++) result[i * 3 + c] = (plane[i]! + prior * overall[c]!) / (density[i]! + prior);
  }
  return result;
}

/**
 * How much of the face's own colour variation (a* and b* about their local means) to keep so its
 * spread matches the target's skin: the ratio of the two skins' standard deviations, kept within
 * [minRatio, maxRatio] — more would paint blotches, less would grey a face out on an evenly lit or
 * drawn one. A greyscale target (skin with no hue) takes none: the ratio may go down to 0.
 */
export function chromaScale(
  sourceLab: Float32Array,
  sourceSkin: Uint8Array,
  targetLab: Float32Array,
  targetSkin: Uint8Array,
  minRatio = 0.6,
  maxRatio = 1.25,
): [number, number] {
  const stats = (lab: Float32Array, skin: Uint8Array, c: number) => {
    let sum = 0;
    let squares = 0;
    let count = 0;
    for (let i = 0; i < skin.length; i++) {
      if (!skin[i]) continue;
      const v = lab[i * 3 + c]!;
      sum += v;
      squares += v * v;
      count++;
    }
    if (!count) return { mean: 0, spread: 0 };
    const mean = sum / count;
    return { mean, spread: Math.sqrt(Math.max(0, squares / count - mean * mean)) };
  };
  const target = [stats(targetLab, targetSkin, 1), stats(targetLab, targetSkin, 2)] as const;
  // Skin this close to neutral is a greyscale (or fully desaturated) photo.
  const grey = Math.hypot(target[0].mean, target[1].mean) < 3;
  const ratio = (c: 1 | 2) => {
    const from = stats(sourceLab, sourceSkin, c).spread;
    if (from <= 0.5) return 1;
    return Math.min(maxRatio, Math.max(grey ? 0 : minRatio, target[c - 1]!.spread / from));
  };
  return [ratio(1), ratio(2)];
}

/**
 * Local colour transfer: every `apply` pixel of `pixels` (RGB, changed in place) is moved in Lab
 * from its own local mean colour to the target's there (localMeanColour over the skin of each),
 * its chroma's departure from that mean scaled by `chroma` (see chromaScale). The face keeps its
 * own detail — everything finer than the window: eyes, brows, wrinkles, freckles — and takes the
 * target's skin tone, white balance and shading, so light falling off across the target's cheek
 * falls off across the new one too.
 */
export function transferLocalColour(
  pixels: Float32Array,
  lab: Float32Array,
  apply: Uint8Array,
  sourceMean: Float32Array,
  targetMean: Float32Array,
  chroma: readonly [number, number] = [1, 1],
): void {
  for (let i = 0; i < apply.length; i++) {
    if (!apply[i]) continue;
    const p = i * 3;
    labToRgb(
      lab[p]! - sourceMean[p]! + targetMean[p]!,
      (lab[p + 1]! - sourceMean[p + 1]!) * chroma[0] + targetMean[p + 1]!,
      (lab[p + 2]! - sourceMean[p + 2]!) * chroma[1] + targetMean[p + 2]!,
      pixels,
      p,
    );
  }
}
