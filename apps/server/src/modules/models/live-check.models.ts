import { descriptorSimilarity, type AnalysedFace } from '@mirra/imaging';

/**
 * The live check a person takes before their digital model is trained: three camera frames
 * (look straight, turn one way, turn the other way) judged together. Pure rules: the frames'
 * face analyses in, the verdict out.
 *
 * What it catches: a different person in front of the camera (descriptor against the model's
 * photos); the same picture sent three times, or a still photo (printed or on a screen) held up,
 * moved, tilted or turned in front of the camera — a flat picture only ever moves as a plane, so
 * the face mesh of one frame maps onto the next by a single perspective transform (homography),
 * while a turning head moves its nose against its cheeks in a way no plane can. What it cannot
 * catch: a video of the person turning their head played on a screen, a good 3D mask, or a
 * deepfake fed into a virtual camera; Human's antispoof and liveness scores are recorded with each
 * check but, as measured on the test portraits (a real studio portrait scores 0.45 "real"), they
 * do not separate real faces from pictures reliably enough to refuse anyone by them.
 */

/** Sides of the check, in the order the person is asked for them. */
export const LIVE_CHECK_FRAMES = ['straight', 'left', 'right'] as const;

export const LIVE_CHECK_RULES = {
  /** The "look straight" frame's head turn, radians (about 11°). */
  maxStraightYaw: 0.2,
  /**
   * How far each turned frame's yaw must be from the straight one's, radians (about 7°), one
   * frame to each side. Whether "left" is a positive or a negative yaw depends on whether the
   * camera mirrors its picture, so the sides are only required to be opposite. Real turns asked
   * for go 20–40°; the test frames (the mesh-warped portraits) reach about 8°.
   */
  minTurn: 0.12,
  /**
   * Every frame's descriptor against the mean of the model's good photos (descriptorSimilarity,
   * 0–1). Measured on the test portraits: the same person 0.77–1.0 (including head turns of the
   * face-motion warp, crops, mirroring, ±8° rotation and ±20 % light); different people
   * 0.15–0.33. The rule sits between the two, nearer the different-person side so that real
   * frames (worse light, a phone camera) still pass: 0.55.
   */
  minSimilarity: 0.55,
  /**
   * The largest mesh motion, between the straight frame and a turned one, that a single
   * perspective transform may explain before the frames count as a flat picture moved around:
   * the RMS reprojection error of the homography fitted to the mesh, in units of the distance
   * between the eyes. Measured: identical frames 0, a print rotated, scaled, shifted or tilted in
   * perspective 0.004–0.02; a head turned by the face-motion warp (7–10°) 0.045 and more.
   */
  minNonPlanarMotion: 0.03,
} as const;

export type LiveCheckProblem =
  | 'face.none'
  | 'face.multiple'
  | 'pose.not_straight'
  | 'pose.no_turn'
  | 'spoof.flat'
  | 'face.different_person';

export interface LiveCheckVerdict {
  passed: boolean;
  problems: LiveCheckProblem[];
  /** Per frame, in LIVE_CHECK_FRAMES order (null: no single face). */
  yaws: (number | null)[];
  /** The lowest frame-to-model similarity (0 when a frame had no face). */
  similarity: number;
  /** The smaller of the two turned frames' non-planar motion (0 when not measurable). */
  nonPlanarMotion: number;
  /** Human's antispoof and liveness scores per frame, kept for staff, not decisive (see above). */
  real: (number | null)[];
  live: (number | null)[];
}

type FrameFace = Pick<AnalysedFace, 'yaw' | 'descriptor' | 'mesh' | 'landmarks' | 'real' | 'live'>;

/**
 * The verdict on three frames' faces (each frame's faces, largest first) against the model's
 * reference descriptor. Every problem found is listed, so the person hears all of them at once.
 */
export function judgeLiveCheck(
  frames: readonly (readonly FrameFace[])[],
  reference: readonly number[],
): LiveCheckVerdict {
  const problems = new Set<LiveCheckProblem>();
  const faces = frames.map((found) => {
    if (found.length === 0) problems.add('face.none');
    if (found.length > 1) problems.add('face.multiple');
    return found.length === 1 ? (found[0] ?? null) : null;
  });
  const yaws = faces.map((face) => (face ? face.yaw : null));
  const similarities = faces.map((face) => (face ? descriptorSimilarity(reference, face.descriptor) : 0));
  const similarity = Math.min(...similarities);
  if (
    faces.some((face) => face) &&
    similarities.some((s, i) => faces[i] && s < LIVE_CHECK_RULES.minSimilarity)
  ) {
    problems.add('face.different_person');
  }
  const [straight, first, second] = faces;
  let nonPlanarMotion = 0;
  if (straight && first && second) {
    if (Math.abs(straight.yaw) > LIVE_CHECK_RULES.maxStraightYaw) problems.add('pose.not_straight');
    const turnA = first.yaw - straight.yaw;
    const turnB = second.yaw - straight.yaw;
    const isTurned =
      Math.abs(turnA) >= LIVE_CHECK_RULES.minTurn &&
      Math.abs(turnB) >= LIVE_CHECK_RULES.minTurn &&
      Math.sign(turnA) !== Math.sign(turnB);
    if (!isTurned) problems.add('pose.no_turn');
    nonPlanarMotion = Math.min(
      nonPlanarMotionBetween(straight, first),
      nonPlanarMotionBetween(straight, second),
    );
    // A flat picture is only told apart from a head once the frames differ at all: frames without
    // a turn are refused for that already, and would otherwise be "flat" too.
    if (isTurned && nonPlanarMotion < LIVE_CHECK_RULES.minNonPlanarMotion) problems.add('spoof.flat');
  }
  return {
    passed: problems.size === 0,
    problems: [...problems],
    yaws,
    similarity,
    nonPlanarMotion,
    real: faces.map((face) => face?.real ?? null),
    live: faces.map((face) => face?.live ?? null),
  };
}

/**
 * How much of the mesh's motion from frame a to frame b no perspective transform of a plane can
 * explain: the RMS distance between b's points and a's points mapped by the best-fitting
 * homography, over the distance between a's eyes.
 */
export function nonPlanarMotionBetween(
  a: Pick<FrameFace, 'mesh' | 'landmarks'>,
  b: Pick<FrameFace, 'mesh'>,
): number {
  const count = Math.min(a.mesh.length, b.mesh.length);
  if (count < 8) return 0;
  const from: [number, number][] = [];
  const to: [number, number][] = [];
  for (let i = 0; i < count; i += 1) {
    const p = a.mesh[i];
    const q = b.mesh[i];
    if (p && q) {
      from.push([p[0], p[1]]);
      to.push([q[0], q[1]]);
    }
  }
  const eyes = Math.hypot(
    a.landmarks.rightEyeOuter[0] - a.landmarks.leftEyeOuter[0],
    a.landmarks.rightEyeOuter[1] - a.landmarks.leftEyeOuter[1],
  );
  if (eyes <= 0) return 0;
  const h = fitHomography(from, to);
  if (!h) return 0;
  let sum = 0;
  for (let i = 0; i < from.length; i += 1) {
    const [x, y] = from[i] ?? [0, 0];
    const [u, v] = to[i] ?? [0, 0];
    const w = (h[6] ?? 0) * x + (h[7] ?? 0) * y + 1;
    const px = ((h[0] ?? 0) * x + (h[1] ?? 0) * y + (h[2] ?? 0)) / w;
    const py = ((h[3] ?? 0) * x + (h[4] ?? 0) * y + (h[5] ?? 0)) / w;
    sum += (px - u) ** 2 + (py - v) ** 2;
  }
  return Math.sqrt(sum / from.length) / eyes;
}

/**
 * The least-squares homography (h33 = 1) taking `from` to `to`, by the normalised direct linear
 * transform: both point sets are centred and scaled first so the 8×8 normal equations are well
 * conditioned, then the result is brought back to pixels.
 */
export function fitHomography(
  from: readonly [number, number][],
  to: readonly [number, number][],
): number[] | null {
  const nf = normaliser(from);
  const nt = normaliser(to);
  const ata = Array.from({ length: 8 }, () => new Array<number>(8).fill(0));
  const atb = new Array<number>(8).fill(0);
  const addRow = (row: number[], value: number) => {
    for (let i = 0; i < 8; i += 1) {
      atb[i] = (atb[i] ?? 0) + (row[i] ?? 0) * value;
      const line = ata[i]!;
      for (let j = 0; j < 8; j += 1) line[j] = (line[j] ?? 0) + (row[i] ?? 0) * (row[j] ?? 0);
    }
  };
  for (let i = 0; i < from.length; i += 1) {
    const x = ((from[i]?.[0] ?? 0) - nf.cx) * nf.s;
    const y = ((from[i]?.[1] ?? 0) - nf.cy) * nf.s;
    const u = ((to[i]?.[0] ?? 0) - nt.cx) * nt.s;
    const v = ((to[i]?.[1] ?? 0) - nt.cy) * nt.s;
    addRow([x, y, 1, 0, 0, 0, -u * x, -u * y], u);
    addRow([0, 0, 0, x, y, 1, -v * x, -v * y], v);
  }
  const n = solve(ata, atb);
  if (!n) return null;
  // H = Tt⁻¹ · N · Tf, with Tf = [[s,0,-s·cx],[0,s,-s·cy],[0,0,1]] (likewise Tt).
  const N = [n[0]!, n[1]!, n[2]!, n[3]!, n[4]!, n[5]!, n[6]!, n[7]!, 1];
  const Tf = [nf.s, 0, -nf.s * nf.cx, 0, nf.s, -nf.s * nf.cy, 0, 0, 1];
  const TtInv = [1 / nt.s, 0, nt.cx, 0, 1 / nt.s, nt.cy, 0, 0, 1];
  const H = multiply3(TtInv, multiply3(N, Tf));
  const scale = H[8] ?? 0;
  if (Math.abs(scale) < 1e-12) return null;
  return H.map((value) => value / scale);
}

function normaliser(points: readonly [number, number][]) {
  let cx = 0;
  let cy = 0;
  for (const [x, y] of points) {
    cx += x / points.length;
    cy += y / points.length;
  }
  let spread = 0;
  for (const [x, y] of points) spread += Math.hypot(x - cx, y - cy) / points.length;
  return { cx, cy, s: spread > 0 ? Math.SQRT2 / spread : 1 };
}

function multiply3(a: readonly number[], b: readonly number[]): number[] {
  const out = new Array<number>(9).fill(0);
  for (let r = 0; r < 3; r += 1) {
    for (let c = 0; c < 3; c += 1) {
      let sum = 0;
      for (let k = 0; k < 3; k += 1) sum += (a[r * 3 + k] ?? 0) * (b[k * 3 + c] ?? 0);
      out[r * 3 + c] = sum;
    }
  }
  return out;
}

/** Gaussian elimination with partial pivoting; null for a singular system. */
function solve(matrix: number[][], vector: number[]): number[] | null {
  const size = vector.length;
  const a = matrix.map((row, i) => [...row, vector[i] ?? 0]);
  for (let col = 0; col < size; col += 1) {
    let pivot = col;
    for (let row = col + 1; row < size; row += 1) {
      if (Math.abs(a[row]![col]!) > Math.abs(a[pivot]![col]!)) pivot = row;
    }
    if (Math.abs(a[pivot]![col]!) < 1e-12) return null;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    for (let row = 0; row < size; row += 1) {
      if (row === col) continue;
      const factor = a[row]![col]! / a[col]![col]!;
      for (let k = col; k <= size; k += 1) a[row]![k] = a[row]![k]! - factor * a[col]![k]!;
    }
  }
  return a.map((row, i) => row[size]! / row[i]!);
}
