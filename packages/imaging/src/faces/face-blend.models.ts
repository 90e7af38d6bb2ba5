/**
 * Making a warped face belong to its new photo once its colour is matched (face-colour.models.ts):
 * masks of the cut and a gradient-domain (Poisson) blend — the face keeps its own details (its gradients) while its
 * overall colour and light are bent to meet the target's along the cut, the way OpenCV's
 * seamlessClone does (which OpenCV.js lacks). Pure functions over Float32Array pixel buffers.
 */

// --- Masks -------------------------------------------------------------------------------------

/** The mask shrunk by `radius` pixels (4-neighbour erosion, repeated). */
export function erode(mask: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  let current = mask;
  for (let r = 0; r < radius; r++) {
    const next = new Uint8Array(current.length);
    for (let y = 1; y < height - 1; y++) {
      for (let x = 1; x < width - 1; x++) {
        const i = y * width + x;
        next[i] =
          current[i] && current[i - 1] && current[i + 1] && current[i - width] && current[i + width] ? 1 : 0;
      }
    }
    current = next;
  }
  return current;
}

/**
 * Per pixel, the chamfer 3-4 distance (in pixels, ≈ Euclidean) to the nearest pixel outside
 * `mask`; 0 outside. Pixels beyond the image edge count as outside.
 */
export function distanceInside(mask: Uint8Array, width: number, height: number): Float32Array {
  const far = 1e9;
  const distance = new Float32Array(mask.length);
  for (let i = 0; i < mask.length; i++) distance[i] = mask[i] ? far : 0;
  const relax = (i: number, j: number, step: number) => {
    const candidate = distance[j]! + step;
    if (candidate < distance[i]!) distance[i] = candidate;
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (!distance[i]) continue;
      if (x === 0 || y === 0) distance[i] = Math.min(distance[i]!, 3);
      if (x > 0) relax(i, i - 1, 3);
      if (y > 0) {
        relax(i, i - width, 3);
        if (x > 0) relax(i, i - width - 1, 4);
        if (x < width - 1) relax(i, i - width + 1, 4);
      }
    }
  }
  for (let y = height - 1; y >= 0; y--) {
    for (let x = width - 1; x >= 0; x--) {
      const i = y * width + x;
      if (!distance[i]) continue;
      if (x === width - 1 || y === height - 1) distance[i] = Math.min(distance[i]!, 3);
      if (x < width - 1) relax(i, i + 1, 3);
      if (y < height - 1) {
        relax(i, i + width, 3);
        if (x < width - 1) relax(i, i + width + 1, 4);
        if (x > 0) relax(i, i + width - 1, 4);
      }
    }
  }
  for (let i = 0; i < distance.length; i++) distance[i] = distance[i]! / 3;
  return distance;
}

// --- Gradient-domain blending ------------------------------------------------------------------

/**
 * The membrane: the smoothest (harmonic) field that equals `known` values outside `inside` and
 * fills `inside`. Poisson cloning is the source plus the membrane of the target-minus-source
 * difference along the cut, which is what `poissonBlend` builds from this.
 *
 * The membrane is smooth by nature, so it is solved on a grid `coarse` times smaller (SOR to
 * convergence, cheap) and interpolated up, then a few passes at full resolution settle it against
 * the exact values along the cut. `known` must be defined (its `defined` flag set) on every pixel
 * 4-adjacent to `inside`. Three channels; returns values for every pixel (0 where undefined).
 */
export function solveMembrane(
  width: number,
  height: number,
  inside: Uint8Array,
  known: Float32Array,
  defined: Uint8Array,
  coarse: number,
  fineIterations = 30,
): Float32Array {
  const n = width * height;
  const result = new Float32Array(n * 3);
  for (let i = 0; i < n; i++) {
    if (defined[i] && !inside[i]) {
      result[i * 3] = known[i * 3]!;
      result[i * 3 + 1] = known[i * 3 + 1]!;
      result[i * 3 + 2] = known[i * 3 + 2]!;
    }
  }
  const step = Math.max(1, Math.round(coarse));
  if (step > 1) {
    const coarseValues = solveCoarse(width, height, inside, known, defined, step);
    // Bilinear interpolation from cell centres.
    const cw = Math.ceil(width / step);
    const ch = Math.ceil(height / step);
    for (let y = 0; y < height; y++) {
      const gy = Math.min(ch - 1, Math.max(0, (y + 0.5) / step - 0.5));
      const y0 = Math.floor(gy);
      const y1 = Math.min(ch - 1, y0 + 1);
      const ty = gy - y0;
      for (let x = 0; x < width; x++) {
        const i = y * width + x;
        if (!inside[i]) continue;
        const gx = Math.min(cw - 1, Math.max(0, (x + 0.5) / step - 0.5));
        const x0 = Math.floor(gx);
        const x1 = Math.min(cw - 1, x0 + 1);
        const tx = gx - x0;
        for (let c = 0; c < 3; c++) {
          const v00 = coarseValues[(y0 * cw + x0) * 3 + c]!;
          const v10 = coarseValues[(y0 * cw + x1) * 3 + c]!;
          const v01 = coarseValues[(y1 * cw + x0) * 3 + c]!;
          const v11 = coarseValues[(y1 * cw + x1) * 3 + c]!;
          const top = v00 + (v10 - v00) * tx;
          const bottom = v01 + (v11 - v01) * tx;
          result[i * 3 + c] = top + (bottom - top) * ty;
        }
      }
    }
  }
  relaxInside(
    width,
    height,
    inside,
    defined,
    result,
    step > 1 ? fineIterations : Math.max(fineIterations, 400),
  );
  return result;
}

/** SOR passes over the inside pixels; neighbours outside that are undefined are left out (Neumann). */
function relaxInside(
  width: number,
  height: number,
  inside: Uint8Array,
  defined: Uint8Array,
  values: Float32Array,
  iterations: number,
): void {
  let count = 0;
  for (let i = 0; i < inside.length; i++) if (inside[i]) count++;
  // Per inside pixel: its index, then its usable neighbours (−1 for none), laid out flat so the
  // hot loop below reads typed arrays only.
  const cells = new Int32Array(count);
  const neighbours = new Int32Array(count * 4).fill(-1);
  const weights = new Float32Array(count);
  let k = 0;
  for (let i = 0; i < inside.length; i++) {
    if (!inside[i]) continue;
    const x = i % width;
    const y = (i - x) / width;
    let n = 0;
    const consider = (j: number) => {
      if (inside[j] || defined[j]) neighbours[k * 4 + n++] = j;
    };
    if (x > 0) consider(i - 1);
    if (x < width - 1) consider(i + 1);
    if (y > 0) consider(i - width);
    if (y < height - 1) consider(i + width);
    cells[k] = i;
    weights[k] = n ? 1 / n : 0;
    k++;
  }
  const omega = 1.85;
  for (let iteration = 0; iteration < iterations; iteration++) {
    for (let c = 0; c < count; c++) {
      const weight = weights[c]!;
      if (weight === 0) continue;
      let r = 0;
      let g = 0;
      let b = 0;
      for (let n = 0; n < 4; n++) {
        const j = neighbours[c * 4 + n]!;
        if (j < 0) break;
        r += values[j * 3]!;
        g += values[j * 3 + 1]!;
        b += values[j * 3 + 2]!;
      }
      const p = cells[c]! * 3;
      values[p] = values[p]! + omega * (r * weight - values[p]!);
      values[p + 1] = values[p + 1]! + omega * (g * weight - values[p + 1]!);
      values[p + 2] = values[p + 2]! + omega * (b * weight - values[p + 2]!);
    }
  }
}

function solveCoarse(
  width: number,
  height: number,
  inside: Uint8Array,
  known: Float32Array,
  defined: Uint8Array,
  step: number,
): Float32Array {
  const cw = Math.ceil(width / step);
  const ch = Math.ceil(height / step);
  const cn = cw * ch;
  const sums = new Float32Array(cn * 3);
  const counts = new Float32Array(cn);
  const cellInside = new Uint8Array(cn);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const cell = Math.floor(y / step) * cw + Math.floor(x / step);
      if (inside[i]) cellInside[cell] = 1;
      else if (defined[i]) {
        sums[cell * 3] = sums[cell * 3]! + known[i * 3]!;
        sums[cell * 3 + 1] = sums[cell * 3 + 1]! + known[i * 3 + 1]!;
        sums[cell * 3 + 2] = sums[cell * 3 + 2]! + known[i * 3 + 2]!;
        counts[cell] = counts[cell]! + 1;
      }
    }
  }
  const values = new Float32Array(cn * 3);
  const cellDefined = new Uint8Array(cn);
  const mean = [0, 0, 0];
  let meanCount = 0;
  for (let cell = 0; cell < cn; cell++) {
    if (cellInside[cell] || !counts[cell]) continue;
    cellDefined[cell] = 1;
    for (let c = 0; c < 3; c++) {
      values[cell * 3 + c] = sums[cell * 3 + c]! / counts[cell]!;
      mean[c]! += values[cell * 3 + c]!;
    }
    meanCount++;
  }
  for (let cell = 0; cell < cn; cell++) {
    if (!cellInside[cell]) continue;
    for (let c = 0; c < 3; c++) values[cell * 3 + c] = meanCount ? mean[c]! / meanCount : 0;
  }
  relaxInside(cw, ch, cellInside, cellDefined, values, Math.max(60, 3 * Math.max(cw, ch)));
  // Cells that are neither (outside the covered area) take their neighbours' values, so the
  // interpolation up never reads a zero.
  let missing = true;
  for (let pass = 0; pass < 8 && missing; pass++) {
    missing = false;
    for (let cell = 0; cell < cn; cell++) {
      if (cellInside[cell] || cellDefined[cell]) continue;
      const x = cell % cw;
      const y = (cell - x) / cw;
      let count = 0;
      const sum = [0, 0, 0];
      for (const [dx, dy] of [
        [-1, 0],
        [1, 0],
        [0, -1],
        [0, 1],
      ] as const) {
        const nx = x + dx;
        const ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= cw || ny >= ch) continue;
        const j = ny * cw + nx;
        if (!cellInside[j] && !cellDefined[j]) continue;
        for (let c = 0; c < 3; c++) sum[c]! += values[j * 3 + c]!;
        count++;
      }
      if (!count) {
        missing = true;
        continue;
      }
      for (let c = 0; c < 3; c++) values[cell * 3 + c] = sum[c]! / count;
      cellDefined[cell] = 1;
    }
  }
  return values;
}

/**
 * Poisson (gradient-domain) blend of `source` into `target` over `inside`: the result has the
 * source's gradients inside and meets the target exactly along the cut. Both are RGB float
 * buffers of the same region; `defined` marks where `source` has values (must include a ring of
 * at least one pixel around `inside`). Returns the blended RGB over the region (target outside).
 *
 * `robustness` > 0 limits the differences along the cut to their median ± that many median
 * absolute deviations: a strand of hair, a spectacle frame or a shadow crossing the cut would
 * otherwise bleed into the face as a blob; the face still takes the overall tone of the cut.
 */
export function poissonBlend(
  width: number,
  height: number,
  source: Float32Array,
  target: Float32Array | Uint8Array,
  inside: Uint8Array,
  defined: Uint8Array,
  coarse: number,
  robustness = 0,
): Float32Array {
  const n = width * height;
  const difference = new Float32Array(n * 3);
  for (let i = 0; i < n; i++) {
    if (!defined[i] || inside[i]) continue;
    for (let c = 0; c < 3; c++) difference[i * 3 + c] = target[i * 3 + c]! - source[i * 3 + c]!;
  }
  if (robustness > 0) clampOutliers(width, height, difference, inside, defined, robustness);
  const membrane = solveMembrane(width, height, inside, difference, defined, coarse);
  const out = new Float32Array(n * 3);
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < 3; c++) {
      out[i * 3 + c] = inside[i] ? source[i * 3 + c]! + membrane[i * 3 + c]! : target[i * 3 + c]!;
    }
  }
  return out;
}

/**
 * Clamps `values` (where defined and outside `inside`) per channel to median ± k·MAD, the
 * statistics taken along the cut (defined pixels 4-adjacent to `inside`).
 */
function clampOutliers(
  width: number,
  height: number,
  values: Float32Array,
  inside: Uint8Array,
  defined: Uint8Array,
  k: number,
): void {
  const ring: number[] = [];
  for (let i = 0; i < inside.length; i++) {
    if (inside[i] || !defined[i]) continue;
    const x = i % width;
    const y = (i - x) / width;
    if (
      (x > 0 && inside[i - 1]) ||
      (x < width - 1 && inside[i + 1]) ||
      (y > 0 && inside[i - width]) ||
      (y < height - 1 && inside[i + width])
    ) {
      ring.push(i);
    }
  }
  if (!ring.length) return;
  for (let c = 0; c < 3; c++) {
    const along = ring.map((i) => values[i * 3 + c]!).sort((a, b) => a - b);
    const median = along[along.length >> 1]!;
    const deviations = along.map((v) => Math.abs(v - median)).sort((a, b) => a - b);
    // 1.4826·MAD estimates the standard deviation of normal data; a floor keeps flat cuts workable.
    const spread = Math.max(4, 1.4826 * deviations[deviations.length >> 1]!) * k;
    for (let i = 0; i < inside.length; i++) {
      if (inside[i] || !defined[i]) continue;
      const v = values[i * 3 + c]!;
      values[i * 3 + c] = Math.min(median + spread, Math.max(median - spread, v));
    }
  }
}
