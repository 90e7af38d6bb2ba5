import {
  type Affine,
  applyAffine,
  invertAffine,
  type Point2,
  triangleAffine,
} from './face-geometry.models.js';

/** Interleaved 8-bit RGB pixels. Pixel (i, j) covers [i, i+1) × [j, j+1) in image coordinates. */
export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** An integer rectangle of an image: the part of the target a face swap works on. */
export interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Bilinear sample of `image` at image coordinates (x, y) into `out[offset..offset+2]`; edges clamp. */
export function sampleBilinear(
  image: RgbImage,
  x: number,
  y: number,
  out: Float32Array,
  offset: number,
): void {
  const { data, width, height } = image;
  // Pixel centres sit at half-integer coordinates.
  const fx = Math.min(width - 1, Math.max(0, x - 0.5));
  const fy = Math.min(height - 1, Math.max(0, y - 0.5));
  const x0 = Math.floor(fx);
  const y0 = Math.floor(fy);
  const x1 = Math.min(width - 1, x0 + 1);
  const y1 = Math.min(height - 1, y0 + 1);
  const tx = fx - x0;
  const ty = fy - y0;
  const i00 = (y0 * width + x0) * 3;
  const i10 = (y0 * width + x1) * 3;
  const i01 = (y1 * width + x0) * 3;
  const i11 = (y1 * width + x1) * 3;
  for (let c = 0; c < 3; c++) {
    const top = data[i00 + c]! + (data[i10 + c]! - data[i00 + c]!) * tx;
    const bottom = data[i01 + c]! + (data[i11 + c]! - data[i01 + c]!) * tx;
    out[offset + c] = top + (bottom - top) * ty;
  }
}

/**
 * The `width`×`height` image whose pixel at p shows the source at `sourceToOutput⁻¹(p)`: how an
 * aligned face crop is cut from a photo (see alignmentTransform).
 */
export function warpAffineImage(
  source: RgbImage,
  sourceToOutput: Affine,
  width: number,
  height: number,
): RgbImage {
  const inverse = invertAffine(sourceToOutput);
  const data = new Uint8Array(width * height * 3);
  if (!inverse) return { data, width, height };
  const pixel = new Float32Array(3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [u, v] = applyAffine(inverse, [x + 0.5, y + 0.5]);
      sampleBilinear(source, u, v, pixel, 0);
      const i = (y * width + x) * 3;
      data[i] = Math.round(pixel[0]!);
      data[i + 1] = Math.round(pixel[1]!);
      data[i + 2] = Math.round(pixel[2]!);
    }
  }
  return { data, width, height };
}

export interface WarpedRegion {
  region: Region;
  /** RGB as floats, region-sized. */
  pixels: Float32Array;
  /** 1 where some triangle covered the pixel. */
  covered: Uint8Array;
}

/**
 * Piecewise-affine warp: each triangle of `targetPoints` is filled from the same triangle of
 * `sourcePoints` in `source` (inverse mapping with bilinear sampling), so every landmark lands
 * exactly on its counterpart and the face follows the target's shape, pose and expression between
 * them. Only pixels inside `region` of the target are computed.
 */
export function warpTriangles(
  source: RgbImage,
  sourcePoints: readonly Point2[],
  targetPoints: readonly Point2[],
  triangles: readonly (readonly [number, number, number])[],
  region: Region,
): WarpedRegion {
  const pixels = new Float32Array(region.width * region.height * 3);
  const covered = new Uint8Array(region.width * region.height);
  for (const [a, b, c] of triangles) {
    const t0 = targetPoints[a]!;
    const t1 = targetPoints[b]!;
    const t2 = targetPoints[c]!;
    const toSource = triangleAffine([t0, t1, t2], [sourcePoints[a]!, sourcePoints[b]!, sourcePoints[c]!]);
    if (!toSource) continue;
    const minX = Math.max(region.x, Math.floor(Math.min(t0[0], t1[0], t2[0])));
    const maxX = Math.min(region.x + region.width - 1, Math.ceil(Math.max(t0[0], t1[0], t2[0])));
    const minY = Math.max(region.y, Math.floor(Math.min(t0[1], t1[1], t2[1])));
    const maxY = Math.min(region.y + region.height - 1, Math.ceil(Math.max(t0[1], t1[1], t2[1])));
    // Edge functions: a pixel centre is inside when all three agree in sign with the triangle's area.
    const area = (t1[0] - t0[0]) * (t2[1] - t0[1]) - (t1[1] - t0[1]) * (t2[0] - t0[0]);
    if (Math.abs(area) < 1e-9) continue;
    const sign = area > 0 ? 1 : -1;
    const edge = (p: Point2, q: Point2, x: number, y: number) =>
      sign * ((q[0] - p[0]) * (y - p[1]) - (q[1] - p[1]) * (x - p[0]));
    for (let y = minY; y <= maxY; y++) {
      const cy = y + 0.5;
      for (let x = minX; x <= maxX; x++) {
        const cx = x + 0.5;
        // A hair of tolerance so pixel centres on shared edges are not missed by both triangles.
        if (edge(t0, t1, cx, cy) < -1e-6 || edge(t1, t2, cx, cy) < -1e-6 || edge(t2, t0, cx, cy) < -1e-6) {
          continue;
        }
        const index = (y - region.y) * region.width + (x - region.x);
        const u = toSource[0] * cx + toSource[1] * cy + toSource[4];
        const v = toSource[2] * cx + toSource[3] * cy + toSource[5];
        sampleBilinear(source, u, v, pixels, index * 3);
        covered[index] = 1;
      }
    }
  }
  return { region, pixels, covered };
}
