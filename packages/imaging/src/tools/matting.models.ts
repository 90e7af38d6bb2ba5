import type { Plane, RawImage } from '../raster/raster.js';

/*
 * Edge refinement of a coarse person mask on the colour photo: a colour guided filter (He, Sun and
 * Tang, "Guided Image Filtering") makes the mask follow the photo's own edges, so strands of hair
 * and the soft outline of a shoulder become partial alpha instead of the segmentation model's
 * blurred 256 px outline; then the foreground colour of each partly transparent pixel is estimated
 * so that the old background does not shine through as a halo on a new one. Pure arithmetic on
 * float planes, no I/O.
 */

/** A float plane, row by row. */
export interface FloatPlane {
  data: Float32Array;
  width: number;
  height: number;
}

/**
 * The mean of every (2r+1)² square, with the window cut at the borders (divided by the pixels it
 * really covers): two running-sum passes, O(pixels) whatever the radius.
 */
export function boxMean(data: Float32Array, width: number, height: number, r: number): Float32Array {
  const horizontal = new Float32Array(data.length);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let sum = 0;
    let count = 0;
    for (let x = 0; x <= Math.min(r, width - 1); x++) {
      sum += data[row + x]!;
      count++;
    }
    for (let x = 0; x < width; x++) {
      horizontal[row + x] = sum / count;
      const add = x + r + 1;
      const drop = x - r;
      if (add < width) {
        sum += data[row + add]!;
        count++;
      }
      if (drop >= 0) {
        sum -= data[row + drop]!;
        count--;
      }
    }
  }
  const out = new Float32Array(data.length);
  const sums = new Float64Array(width);
  let count = 0;
  for (let y = 0; y <= Math.min(r, height - 1); y++) {
    for (let x = 0; x < width; x++) sums[x]! += horizontal[y * width + x]!;
    count++;
  }
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) out[y * width + x] = sums[x]! / count;
    const add = y + r + 1;
    const drop = y - r;
    if (add < height) {
      for (let x = 0; x < width; x++) sums[x]! += horizontal[add * width + x]!;
      count++;
    }
    if (drop >= 0) {
      for (let x = 0; x < width; x++) sums[x]! -= horizontal[drop * width + x]!;
      count--;
    }
  }
  return out;
}

/**
 * The colour guided filter of `p` guided by the RGB image (values 0–1 in both): in every window the
 * output is a linear function of the guide's colour fitted to `p`, so its edges land where the
 * photo's edges are. `eps` is the regularisation: smaller follows finer colour changes.
 */
export function guidedFilter(guide: RawImage, p: Float32Array, r: number, eps: number): Float32Array {
  // He and Sun's "fast guided filter": the linear coefficients are smooth, so they are fitted on a
  // half-size copy (a quarter of the work) and applied to the full-size colours.
  if (Math.max(guide.width, guide.height) > 700 && r >= 4) {
    const small = halve(guide.data, guide.width, guide.height, 3);
    const smallGuide: RawImage = {
      data: Buffer.from(small.data.map((v) => Math.round(v))),
      width: small.width,
      height: small.height,
      channels: 3,
    };
    const coefficients = guidedCoefficients(
      smallGuide,
      halve(p, guide.width, guide.height, 1).data,
      Math.round(r / 2),
      eps,
    );
    const full = coefficients.map((plane) =>
      double(plane, small.width, small.height, guide.width, guide.height),
    );
    return applyCoefficients(guide, full);
  }
  return applyCoefficients(guide, guidedCoefficients(guide, p, r, eps));
}

/** Mean of each 2×2 block (the last odd row or column kept alone), per channel. */
export function halve(data: ArrayLike<number>, width: number, height: number, channels: number) {
  const w = Math.ceil(width / 2);
  const h = Math.ceil(height / 2);
  const out = new Float32Array(w * h * channels);
  for (let y = 0; y < h; y++) {
    const y0 = 2 * y;
    const y1 = Math.min(height - 1, y0 + 1);
    for (let x = 0; x < w; x++) {
      const x0 = 2 * x;
      const x1 = Math.min(width - 1, x0 + 1);
      for (let c = 0; c < channels; c++) {
        out[(y * w + x) * channels + c] =
          (data[(y0 * width + x0) * channels + c]! +
            data[(y0 * width + x1) * channels + c]! +
            data[(y1 * width + x0) * channels + c]! +
            data[(y1 * width + x1) * channels + c]!) /
          4;
      }
    }
  }
  return { data: out, width: w, height: h };
}

/** Bilinear enlargement of a one-channel plane of w×h to width×height. */
export function double(
  plane: Float32Array,
  w: number,
  h: number,
  width: number,
  height: number,
): Float32Array {
  const out = new Float32Array(width * height);
  const sx = w / width;
  const sy = h / height;
  for (let y = 0; y < height; y++) {
    const fy = Math.min(h - 1, Math.max(0, (y + 0.5) * sy - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(h - 1, y0 + 1);
    const ty = fy - y0;
    for (let x = 0; x < width; x++) {
      const fx = Math.min(w - 1, Math.max(0, (x + 0.5) * sx - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(w - 1, x0 + 1);
      const tx = fx - x0;
      const top = plane[y0 * w + x0]! * (1 - tx) + plane[y0 * w + x1]! * tx;
      const bottom = plane[y1 * w + x0]! * (1 - tx) + plane[y1 * w + x1]! * tx;
      out[y * width + x] = top * (1 - ty) + bottom * ty;
    }
  }
  return out;
}

function applyCoefficients(guide: RawImage, [ar, ag, ab, b]: Float32Array[]): Float32Array {
  const n = guide.width * guide.height;
  const out = new Float32Array(n);
  for (let i = 0, q = 0; i < n; i++, q += 3) {
    out[i] =
      (ar![i]! * guide.data[q]! + ag![i]! * guide.data[q + 1]! + ab![i]! * guide.data[q + 2]!) / 255 + b![i]!;
  }
  return out;
}

/** The window-averaged linear coefficients (a per colour channel, then b) of the guided filter. */
function guidedCoefficients(guide: RawImage, p: Float32Array, r: number, eps: number): Float32Array[] {
  const { width, height } = guide;
  const n = width * height;
  const ir = new Float32Array(n);
  const ig = new Float32Array(n);
  const ib = new Float32Array(n);
  for (let i = 0, q = 0; i < n; i++, q += 3) {
    ir[i] = guide.data[q]! / 255;
    ig[i] = guide.data[q + 1]! / 255;
    ib[i] = guide.data[q + 2]! / 255;
  }
  const mean = (a: Float32Array) => boxMean(a, width, height, r);
  const product = (a: Float32Array, b: Float32Array) => {
    const out = new Float32Array(n);
    for (let i = 0; i < n; i++) out[i] = a[i]! * b[i]!;
    return out;
  };
  const mr = mean(ir);
  const mg = mean(ig);
  const mb = mean(ib);
  const mp = mean(p);
  const mrp = mean(product(ir, p));
  const mgp = mean(product(ig, p));
  const mbp = mean(product(ib, p));
  const vrr = mean(product(ir, ir));
  const vrg = mean(product(ir, ig));
  const vrb = mean(product(ir, ib));
  const vgg = mean(product(ig, ig));
  const vgb = mean(product(ig, ib));
  const vbb = mean(product(ib, ib));
  const ar = new Float32Array(n);
  const ag = new Float32Array(n);
  const ab = new Float32Array(n);
  const bb = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const r0 = mr[i]!;
    const g0 = mg[i]!;
    const b0 = mb[i]!;
    const covR = mrp[i]! - r0 * mp[i]!;
    const covG = mgp[i]! - g0 * mp[i]!;
    const covB = mbp[i]! - b0 * mp[i]!;
    // Σ + eps·I, inverted by its adjugate (symmetric 3×3).
    const s11 = vrr[i]! - r0 * r0 + eps;
    const s12 = vrg[i]! - r0 * g0;
    const s13 = vrb[i]! - r0 * b0;
    const s22 = vgg[i]! - g0 * g0 + eps;
    const s23 = vgb[i]! - g0 * b0;
    const s33 = vbb[i]! - b0 * b0 + eps;
    const c11 = s22 * s33 - s23 * s23;
    const c12 = s13 * s23 - s12 * s33;
    const c13 = s12 * s23 - s13 * s22;
    const c22 = s11 * s33 - s13 * s13;
    const c23 = s12 * s13 - s11 * s23;
    const c33 = s11 * s22 - s12 * s12;
    const det = s11 * c11 + s12 * c12 + s13 * c13;
    const inv = det > 1e-12 ? 1 / det : 0;
    const a1 = (c11 * covR + c12 * covG + c13 * covB) * inv;
    const a2 = (c12 * covR + c22 * covG + c23 * covB) * inv;
    const a3 = (c13 * covR + c23 * covG + c33 * covB) * inv;
    ar[i] = a1;
    ag[i] = a2;
    ab[i] = a3;
    bb[i] = mp[i]! - a1 * r0 - a2 * g0 - a3 * b0;
  }
  return [mean(ar), mean(ag), mean(ab), mean(bb)];
}

/** Steepens a soft 0–1 ramp: below `low` is 0, above `high` is 1, smooth in between. */
export function smoothstep(low: number, high: number, v: number): number {
  const t = Math.min(1, Math.max(0, (v - low) / (high - low)));
  return t * t * (3 - 2 * t);
}

/**
 * The alpha of the person: the coarse mask steepened (the model's soft outline is uncertainty, not
 * transparency), refined by the guided filter on the photo, and kept certain away from the outline
 * (the filter may only decide in a band around it, so a shirt the colour of the wall stays opaque).
 * `coarse` is 0–1 at the image's size.
 */
export function refineAlpha(image: RawImage, coarse: Float32Array): Float32Array {
  const { width, height } = image;
  const long = Math.max(width, height);
  const hard = coarse.map((v) => smoothstep(0.35, 0.65, v));
  const r = Math.max(2, Math.round(long / 90));
  const refined = guidedFilter(image, hard, r, 2e-3);
  // The band where the outline may move: a blurred copy of the hard mask neither 0 nor 1.
  const band = boxMean(boxMean(hard, width, height, Math.max(2, Math.round(long / 60))), width, height, 2);
  const alpha = new Float32Array(coarse.length);
  for (let i = 0; i < alpha.length; i++) {
    const b = band[i]!;
    const free = b > 0.02 && b < 0.98 ? 1 : 0;
    const sure = hard[i]!;
    const edge = Math.min(1, Math.max(0, refined[i]!));
    // A gentle contrast on the refined edge keeps the inside solid and the outside clean.
    const tidy = smoothstep(0.06, 0.94, edge);
    alpha[i] = free ? tidy : sure;
  }
  return alpha;
}

/**
 * Foreground colours for a cut-out: at a partly transparent pixel the photo shows the person mixed
 * with the old background (I = αF + (1−α)B). B is estimated as the local mean of the sure
 * background, and F solved from it; where that is unstable (α near 0) the local mean of the sure
 * person is used. Without this, hair on a new background keeps a rim of the old one.
 */
export function estimateForeground(image: RawImage, alpha: Float32Array): RawImage {
  const { width, height } = image;
  const n = width * height;
  const r = Math.max(3, Math.round(Math.max(width, height) / 50));
  const back = new Float32Array(n);
  const fore = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const a = alpha[i]!;
    back[i] = a < 0.1 ? 1 : 0;
    fore[i] = a > 0.9 ? 1 : 0;
  }
  // The local means are smooth (a window of a fiftieth of the picture): worked out at half size.
  const smooth = (plane: Float32Array) => {
    const small = halve(plane, width, height, 1);
    return double(
      boxMean(small.data, small.width, small.height, Math.max(1, r >> 1)),
      small.width,
      small.height,
      width,
      height,
    );
  };
  const backWeight = smooth(back);
  const foreWeight = smooth(fore);
  const out = Buffer.from(image.data);
  const channel = new Float32Array(n);
  for (let c = 0; c < 3; c++) {
    for (let i = 0; i < n; i++) channel[i] = image.data[i * 3 + c]! * back[i]!;
    const backMean = smooth(channel);
    for (let i = 0; i < n; i++) channel[i] = image.data[i * 3 + c]! * fore[i]!;
    const foreMean = smooth(channel);
    for (let i = 0; i < n; i++) {
      const a = alpha[i]!;
      if (a >= 0.98 || a <= 0.02) continue;
      const observed = image.data[i * 3 + c]!;
      const bw = backWeight[i]!;
      const fw = foreWeight[i]!;
      const b = bw > 1e-3 ? backMean[i]! / bw : observed;
      const fallback = fw > 1e-3 ? foreMean[i]! / fw : observed;
      const solved = (observed - (1 - a) * b) / a;
      // Trust the solved colour where the person dominates the pixel, the fallback where they barely do.
      const trust = smoothstep(0.15, 0.6, a);
      const f = solved * trust + fallback * (1 - trust);
      out[i * 3 + c] = Math.max(0, Math.min(255, Math.round(f)));
    }
  }
  return { data: out, width, height, channels: 3 };
}

/** A float 0–1 plane as 0–255 bytes. */
export function toBytes(plane: Float32Array, width: number, height: number): Plane {
  const data = new Uint8Array(plane.length);
  for (let i = 0; i < plane.length; i++) data[i] = Math.round(Math.min(1, Math.max(0, plane[i]!)) * 255);
  return { data, width, height };
}
