/**
 * The two layers of the parallax move: the subject (cut out by its mask) in front, and the photo
 * behind it with the subject's place filled from the surrounding background, so what the
 * foreground uncovers as it moves is background and not a copy of the subject's edge.
 */

/** A subject smaller than this share of the photo is too small to lift; larger is no foreground. */
export const PARALLAX_MIN_COVERAGE = 0.04;
export const PARALLAX_MAX_COVERAGE = 0.85;
/**
 * Beyond this share of unsure mask pixels (neither clearly subject nor clearly background) the
 * model is guessing — a cup, a landscape — and cutting along its guess would tear the picture.
 */
export const PARALLAX_MAX_UNSURE = 0.3;

export interface SubjectStats {
  /** Share of the mask above one half. */
  coverage: number;
  /** Of the pixels with some subject in them, the share the model is unsure of (15–85 %). */
  unsure: number;
  /** The mask's centre of mass, as fractions of the photo. */
  centre: { x: number; y: number };
}

/** How much of the photo the subject covers and where it is (mask values 0–255). */
export function subjectStats(mask: { data: Uint8Array; width: number; height: number }): SubjectStats {
  let inside = 0;
  let touched = 0;
  let unsure = 0;
  let weight = 0;
  let sumX = 0;
  let sumY = 0;
  for (let y = 0; y < mask.height; y++) {
    for (let x = 0; x < mask.width; x++) {
      const value = mask.data[y * mask.width + x]! / 255;
      if (value > 0.5) inside++;
      if (value > 0.15) {
        touched++;
        if (value < 0.85) unsure++;
      }
      weight += value;
      sumX += value * (x + 0.5);
      sumY += value * (y + 0.5);
    }
  }
  const centre =
    weight > 0 ? { x: sumX / weight / mask.width, y: sumY / weight / mask.height } : { x: 0.5, y: 0.5 };
  return {
    coverage: inside / (mask.width * mask.height),
    unsure: touched > 0 ? unsure / touched : 1,
    centre,
  };
}

export function isParallaxSubject(stats: SubjectStats): boolean {
  return (
    stats.coverage >= PARALLAX_MIN_COVERAGE &&
    stats.coverage <= PARALLAX_MAX_COVERAGE &&
    stats.unsure <= PARALLAX_MAX_UNSURE
  );
}

/**
 * The mask made into a solid cut-out: small holes closed (a maximum then a minimum over
 * `radius` pixels) and its values pushed towards 0 and 1, keeping a soft edge, so the subject
 * moves as one piece and nothing behind it shows through.
 */
export function solidMatte(
  mask: { data: Uint8Array; width: number; height: number },
  radius = 3,
): { data: Uint8Array; width: number; height: number } {
  const { width, height } = mask;
  const closed = filter(filter(mask.data, width, height, radius, Math.max), width, height, radius, Math.min);
  const data = new Uint8Array(width * height);
  for (let i = 0; i < data.length; i++) {
    const t = Math.min(1, Math.max(0, (closed[i]! / 255 - 0.35) / 0.3));
    data[i] = Math.round(255 * t * t * (3 - 2 * t));
  }
  return { data, width, height };
}

/** A separable square maximum or minimum filter. */
function filter(
  data: Uint8Array,
  width: number,
  height: number,
  radius: number,
  pick: (...values: number[]) => number,
): Uint8Array {
  const rows = new Uint8Array(data.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let value = data[y * width + x]!;
      for (let d = Math.max(0, x - radius); d <= Math.min(width - 1, x + radius); d++) {
        value = pick(value, data[y * width + d]!);
      }
      rows[y * width + x] = value;
    }
  }
  const out = new Uint8Array(data.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let value = rows[y * width + x]!;
      for (let d = Math.max(0, y - radius); d <= Math.min(height - 1, y + radius); d++) {
        value = pick(value, rows[d * width + x]!);
      }
      out[y * width + x] = value;
    }
  }
  return out;
}

/** The side of the coarse grid the background is filled on (canvas pixels per cell). */
const FILL_CELL = 16;

/**
 * The background layer: `rgb` with the subject (alpha, 0–255, grown a little past its edge so no
 * halo of it stays behind) replaced by the background around it — the known background averaged
 * on a coarse grid and spread into the hole by repeated normalised blurring (each empty cell
 * takes the weighted mean of its neighbours), then brought back to full size bilinearly. The
 * result is a soft, out-of-focus continuation of the background, which is what a revealed strip
 * behind a near subject looks like.
 */
export function fillBehindSubject(
  rgb: Uint8Array,
  alpha: Uint8Array,
  width: number,
  height: number,
): Uint8Array {
  const columns = Math.ceil(width / FILL_CELL);
  const rows = Math.ceil(height / FILL_CELL);
  const sums = new Float32Array(columns * rows * 3);
  const weights = new Float32Array(columns * rows);
  const known = grownKnown(alpha, width, height);
  for (let y = 0; y < height; y++) {
    const row = Math.floor(y / FILL_CELL);
    for (let x = 0; x < width; x++) {
      const weight = known[y * width + x]! / 255;
      if (weight <= 0) continue;
      const cell = row * columns + Math.floor(x / FILL_CELL);
      const i = (y * width + x) * 3;
      sums[cell * 3]! += rgb[i]! * weight;
      sums[cell * 3 + 1]! += rgb[i + 1]! * weight;
      sums[cell * 3 + 2]! += rgb[i + 2]! * weight;
      weights[cell]! += weight;
    }
  }
  // Cells' colours (premultiplied by confidence), spread until every cell has some.
  const colour = new Float32Array(columns * rows * 3);
  const confidence = new Float32Array(columns * rows);
  const full = FILL_CELL * FILL_CELL;
  for (let cell = 0; cell < columns * rows; cell++) {
    const w = weights[cell]!;
    if (w <= 0) continue;
    const c = Math.min(1, w / (full * 0.5));
    for (let k = 0; k < 3; k++) colour[cell * 3 + k] = (sums[cell * 3 + k]! / w) * c;
    confidence[cell] = c;
  }
  for (let pass = 0; pass < Math.max(columns, rows); pass++) {
    let missing = 0;
    const nextColour = colour.slice();
    const nextConfidence = confidence.slice();
    for (let row = 0; row < rows; row++) {
      for (let column = 0; column < columns; column++) {
        const cell = row * columns + column;
        if (confidence[cell]! >= 0.999) continue;
        let c = 0;
        const acc = [0, 0, 0];
        for (let dy = -1; dy <= 1; dy++) {
          for (let dx = -1; dx <= 1; dx++) {
            const r = row + dy;
            const q = column + dx;
            if (r < 0 || r >= rows || q < 0 || q >= columns) continue;
            const neighbour = r * columns + q;
            c += confidence[neighbour]!;
            for (let k = 0; k < 3; k++) acc[k]! += colour[neighbour * 3 + k]!;
          }
        }
        if (c <= 0) {
          missing++;
          continue;
        }
        // What the cell lacks in confidence is made up from its neighbours' mean colour.
        const own = confidence[cell]!;
        const take = 1 - own;
        for (let k = 0; k < 3; k++) nextColour[cell * 3 + k] = colour[cell * 3 + k]! + (take * acc[k]!) / c;
        nextConfidence[cell] = 1;
      }
    }
    colour.set(nextColour);
    confidence.set(nextConfidence);
    if (missing === 0) break;
  }
  // The spread leaves streaks along the grid; a few blurs of the filled cells soften them into the
  // out-of-focus look a background has behind a near subject.
  for (let pass = 0; pass < 4; pass++) {
    const blurred = colour.slice();
    for (let row = 0; row < rows; row++) {
      for (let column = 0; column < columns; column++) {
        const cell = row * columns + column;
        if (weights[cell]! >= full * 0.5) continue;
        const acc = [0, 0, 0];
        let count = 0;
        for (let dy = -1; dy <= 1; dy++) {
          for (let dx = -1; dx <= 1; dx++) {
            const r = row + dy;
            const q = column + dx;
            if (r < 0 || r >= rows || q < 0 || q >= columns) continue;
            for (let k = 0; k < 3; k++) acc[k]! += colour[(r * columns + q) * 3 + k]!;
            count++;
          }
        }
        for (let k = 0; k < 3; k++) blurred[cell * 3 + k] = acc[k]! / count;
      }
    }
    colour.set(blurred);
  }
  // Bilinear back to full size; the original pixels stay wherever the background is known.
  const out = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    const gy = Math.min(rows - 1, Math.max(0, (y + 0.5) / FILL_CELL - 0.5));
    const r0 = Math.floor(gy);
    const r1 = Math.min(rows - 1, r0 + 1);
    const ty = gy - r0;
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const keep = known[y * width + x]! / 255;
      const gx = Math.min(columns - 1, Math.max(0, (x + 0.5) / FILL_CELL - 0.5));
      const c0 = Math.floor(gx);
      const c1 = Math.min(columns - 1, c0 + 1);
      const tx = gx - c0;
      for (let k = 0; k < 3; k++) {
        const top =
          colour[(r0 * columns + c0) * 3 + k]! * (1 - tx) + colour[(r0 * columns + c1) * 3 + k]! * tx;
        const bottom =
          colour[(r1 * columns + c0) * 3 + k]! * (1 - tx) + colour[(r1 * columns + c1) * 3 + k]! * tx;
        const filled = top * (1 - ty) + bottom * ty;
        out[i + k] = Math.round(rgb[i + k]! * keep + filled * (1 - keep));
      }
    }
  }
  return out;
}

/**
 * 255 where the pixel is surely background, 0 on the subject and a band around it (the mask's
 * soft edge carries some of the subject's colour): the alpha is grown by a box maximum.
 */
function grownKnown(alpha: Uint8Array, width: number, height: number): Uint8Array {
  const GROW = 12;
  const horizontal = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let max = 0;
      for (let d = Math.max(0, x - GROW); d <= Math.min(width - 1, x + GROW); d += 3) {
        const v = alpha[y * width + d]!;
        if (v > max) max = v;
      }
      horizontal[y * width + x] = max;
    }
  }
  const known = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let max = 0;
      for (let d = Math.max(0, y - GROW); d <= Math.min(height - 1, y + GROW); d += 3) {
        const v = horizontal[d * width + x]!;
        if (v > max) max = v;
      }
      // Anything with a trace of subject counts as not known.
      known[y * width + x] = max > 24 ? 0 : 255 - max * 10;
    }
  }
  return known;
}

/** One frame: the foreground (RGBA) over the background (RGB), written into `background`. */
export function composeLayers(background: Uint8Array, foreground: Uint8Array, pixels: number): Uint8Array {
  for (let p = 0; p < pixels; p++) {
    const a = foreground[p * 4 + 3]! / 255;
    if (a <= 0) continue;
    const i = p * 3;
    const j = p * 4;
    background[i] = Math.round(background[i]! + (foreground[j]! - background[i]!) * a);
    background[i + 1] = Math.round(background[i + 1]! + (foreground[j + 1]! - background[i + 1]!) * a);
    background[i + 2] = Math.round(background[i + 2]! + (foreground[j + 2]! - background[i + 2]!) * a);
  }
  return background;
}
