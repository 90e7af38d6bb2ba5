import { distanceInside, erode, poissonBlend } from './face-blend.models.js';
import {
  chromaScale,
  localMeanColour,
  skinPixels,
  toLab,
  transferLocalColour,
} from './face-colour.models.js';
import {
  applyAffine,
  convexHull,
  delaunay,
  FACE_OVAL,
  isInsideConvex,
  MESH_SURFACE_POINTS,
  type Point2,
  polygonArea,
  scalePolygon,
  similarityTransform,
} from './face-geometry.models.js';
import { type Region, type RgbImage, warpTriangles } from './face-warp.models.js';

export interface FaceSwapInput {
  /** The photo that receives the face. */
  target: RgbImage;
  /** The target face's mesh (MediaPipe numbering, ≥ 468 points) in target pixels. */
  targetMesh: readonly Point2[];
  /** The photo the face comes from. */
  source: RgbImage;
  /** The source face's mesh in source pixels. */
  sourceMesh: readonly Point2[];
  /**
   * 0–1: how much of the source's own proportions (eye spacing, nose length, mouth width) the face
   * keeps, against taking the target's. The outline always follows the target. Lower it when the
   * two faces are turned differently (the source's 2D shape is then a poor guide). Default 0.8.
   */
  shapeFromSource?: number;
  /**
   * Match the face's colour statistics to the target face's before blending (photos); off when the
   * target is a flat drawn head whose statistics would wash the face out.
   */
  matchColour?: boolean;
}

export interface FaceSwapResult {
  image: RgbImage;
  /** The target rectangle that changed. */
  region: Region;
  /** Pixels that took the new face. */
  faceArea: number;
  /** Over `region` (row by row), 1 where the new face was cut in: the seam is this mask's edge. */
  mask: Uint8Array;
}

/** How far inside the mesh outline the cut runs: the outline itself touches hair and background. */
const OUTLINE_SHRINK = 0.95;

/** Differences along the cut beyond median ± this many MADs are clamped (hair, frames, shadows). */
const BOUNDARY_ROBUSTNESS = 1.5;

/**
 * The windows over which the face's colour is matched to the target's, as fractions of the face's
 * size. Skin tone and white balance (a*, b*) are matched closely, so no cast survives anywhere;
 * lightness over a wider window, so the face takes the photo's light but keeps the shading of its
 * own features (cheekbones, eye sockets), which is much of how a person looks.
 */
const HUE_WINDOW = 0.06;
const LIGHT_WINDOW = 0.3;

/** How far into the face (a fraction of its size) the Poisson seam correction reaches, fading out. */
const SEAM_REACH = 0.1;

const OUTLINE_SET = new Set<number>(FACE_OVAL);

/**
 * Where each source landmark goes in the target: the source's face shape moved onto the target
 * face by the best similarity (keeping its proportions, which carry much of a person's look),
 * mixed by `weight` with the target's own landmarks. The outline stays exactly the target's, so
 * the face fills the target's face and the cut meets it; points next to the outline move halfway.
 */
function blendShapes(source: readonly Point2[], target: readonly Point2[], weight: number): Point2[] {
  const w = Math.min(1, Math.max(0, weight));
  if (w === 0) return [...target];
  const fit = similarityTransform(source, target);
  return target.map((point, index) => {
    if (OUTLINE_SET.has(index)) return point;
    const [sx, sy] = applyAffine(fit, source[index]!);
    return [point[0] + w * (sx - point[0]), point[1] + w * (sy - point[1])] as const;
  });
}

/** Eyebrow points of the mesh (both brows, upper edge). */
const BROWS = [70, 63, 105, 66, 107, 336, 296, 334, 293, 300] as const;
/** How much of the forehead above the brows the cut keeps: its top is hair on most people. */
const FOREHEAD_KEPT = 0.45;

/**
 * The outline with its forehead part pulled down towards the brows (measured along the face's own
 * up-down axis, so a tilted head is handled): fringes, hairlines and hats stay the target's, as
 * classical swaps do with the 68-point hull, while the brows and everything below come across.
 */
function lowerForehead(outline: Point2[], mesh: readonly Point2[]): Point2[] {
  const right = mesh[33]!;
  const left = mesh[263]!;
  const length = Math.hypot(left[0] - right[0], left[1] - right[1]) || 1;
  const ux = (left[0] - right[0]) / length;
  const uy = (left[1] - right[1]) / length;
  // Down the face: the eye axis turned a quarter clockwise (image y grows downwards).
  const vx = -uy;
  const vy = ux;
  const down = (p: Point2) => p[0] * vx + p[1] * vy;
  const browLevel = BROWS.reduce((sum, index) => sum + down(mesh[index]!), 0) / BROWS.length;
  return outline.map((p) => {
    const depth = down(p) - browLevel;
    if (depth >= 0) return p;
    const shift = depth * (FOREHEAD_KEPT - 1);
    return [p[0] + shift * vx, p[1] + shift * vy] as const;
  });
}

/**
 * The classical face swap: (1) the source face is warped onto the target face triangle by
 * triangle over a Delaunay triangulation of the target's mesh, so it takes the target's pose,
 * shape and expression; (2) its colour is matched to the target's locally in Lab, skin against
 * skin (eyes, glasses, hair and background left out of the statistics), so it takes the target's
 * skin tone and shading; (3) it is blended in the gradient domain (Poisson) from skin meeting skin
 * along the cut, the correction fading out a short way into the face; (4) a narrow feather softens
 * what remains of the edge. The source's eyes, brows, nose, mouth and skin texture — what
 * identifies a face — come through.
 */
export function swapFace(input: FaceSwapInput): FaceSwapResult {
  const { target, source } = input;
  const targetPoints = input.targetMesh.slice(0, MESH_SURFACE_POINTS);
  const sourcePoints = input.sourceMesh.slice(0, MESH_SURFACE_POINTS);
  if (targetPoints.length < MESH_SURFACE_POINTS || sourcePoints.length < MESH_SURFACE_POINTS) {
    throw new Error('face swap needs the full face mesh of both faces');
  }
  const outline = convexHull(
    lowerForehead(
      FACE_OVAL.map((index) => targetPoints[index]!),
      targetPoints,
    ),
  );
  const faceSize = Math.sqrt(polygonArea(outline));
  const margin = Math.ceil(faceSize * 0.08) + 4;
  const xs = outline.map((p) => p[0]);
  const ys = outline.map((p) => p[1]);
  const left = Math.max(0, Math.floor(Math.min(...xs)) - margin);
  const top = Math.max(0, Math.floor(Math.min(...ys)) - margin);
  const right = Math.min(target.width, Math.ceil(Math.max(...xs)) + margin);
  const bottom = Math.min(target.height, Math.ceil(Math.max(...ys)) + margin);
  const region: Region = { x: left, y: top, width: right - left, height: bottom - top };
  if (region.width < 8 || region.height < 8) throw new Error('the target face is too small to swap');

  const destination = blendShapes(sourcePoints, targetPoints, input.shapeFromSource ?? 0.8);
  const triangles = delaunay(destination);
  const warped = warpTriangles(source, sourcePoints, destination, triangles, region);

  // The cut: inside the shrunk outline, and at least two pixels inside what the warp covered, so
  // every pixel next to the cut has a warped value for the Poisson boundary.
  const cut = scalePolygon(outline, OUTLINE_SHRINK);
  const inOutline = new Uint8Array(region.width * region.height);
  for (let y = 0; y < region.height; y++) {
    for (let x = 0; x < region.width; x++) {
      if (isInsideConvex(cut, region.x + x + 0.5, region.y + y + 0.5)) inOutline[y * region.width + x] = 1;
    }
  }
  const coveredInside = erode(warped.covered, region.width, region.height, 2);
  const inside = new Uint8Array(inOutline.length);
  let faceArea = 0;
  for (let i = 0; i < inside.length; i++) {
    if (inOutline[i] && coveredInside[i]) {
      inside[i] = 1;
      faceArea++;
    }
  }

  const targetRegion = new Float32Array(region.width * region.height * 3);
  for (let y = 0; y < region.height; y++) {
    const row = ((region.y + y) * target.width + region.x) * 3;
    for (let x = 0; x < region.width * 3; x++) targetRegion[y * region.width * 3 + x] = target.data[row + x]!;
  }

  // Where the Poisson blend reads the difference between the target and the face along the cut.
  let boundary = warped.covered;
  if (input.matchColour !== false) {
    // Skin of both faces, judged against each face's own typical colour inside the cut; the
    // target's taken around the cut too (its cheeks, jaw and forehead continue there).
    const sourceLab = toLab(warped.pixels);
    const targetLab = toLab(targetRegion);
    const sourceSkin = skinPixels(sourceLab, inside, warped.covered);
    const everywhere = new Uint8Array(inside.length).fill(1);
    const targetSkin = skinPixels(targetLab, inside, everywhere);
    const means = (lab: Float32Array, skin: Uint8Array) => {
      const hue = localMeanColour(lab, skin, region.width, region.height, faceSize * HUE_WINDOW, [1, 2]);
      const light = localMeanColour(lab, skin, region.width, region.height, faceSize * LIGHT_WINDOW, [0]);
      for (let i = 0; i < hue.length; i += 3) hue[i] = light[i]!;
      return hue;
    };
    transferLocalColour(
      warped.pixels,
      sourceLab,
      warped.covered,
      means(sourceLab, sourceSkin),
      means(targetLab, targetSkin),
      chromaScale(sourceLab, sourceSkin, targetLab, targetSkin),
    );
    // Only skin meeting skin says how the face's light should meet the photo's: a strand of the
    // target's hair or the source's glasses on the cut would bleed into the face as a blotch.
    boundary = new Uint8Array(inside.length);
    for (let i = 0; i < boundary.length; i++) {
      boundary[i] = warped.covered[i] && (inside[i] || (sourceSkin[i] && targetSkin[i])) ? 1 : 0;
    }
  }
  // Coarse grid for the membrane: about 48 cells across the face.
  const blended = poissonBlend(
    region.width,
    region.height,
    warped.pixels,
    targetRegion,
    inside,
    boundary,
    Math.max(1, faceSize / 48),
    BOUNDARY_ROBUSTNESS,
  );
  // The cut's soft edge: 0 outside rising to 1 a few pixels in. With the colour matched locally
  // the membrane's work is the seam, so it fades out into the face instead of tinting all of it
  // with whatever lies along the cut; unmatched (a drawn head), it carries the whole correction.
  const depth = distanceInside(inside, region.width, region.height);
  const feather = Math.max(2, faceSize * 0.03);
  const reach = input.matchColour !== false ? SEAM_REACH * faceSize : Infinity;
  const data = new Uint8Array(target.data);
  for (let y = 0; y < region.height; y++) {
    for (let x = 0; x < region.width; x++) {
      const i = y * region.width + x;
      const d = depth[i]!;
      if (d <= 0) continue;
      const a = Math.min(1, d / feather);
      const fade = Math.max(0, 1 - d / reach);
      const out = ((region.y + y) * target.width + region.x + x) * 3;
      for (let c = 0; c < 3; c++) {
        const p = i * 3 + c;
        const face = warped.pixels[p]! + fade * (blended[p]! - warped.pixels[p]!);
        const value = targetRegion[p]! + a * (face - targetRegion[p]!);
        data[out + c] = Math.min(255, Math.max(0, Math.round(value)));
      }
    }
  }
  return { image: { data, width: target.width, height: target.height }, region, faceArea, mask: inside };
}
