import type { TStyle } from '@mirra/contracts';
import {
  type Checkpoint,
  inkLines,
  kuwahara,
  luminance,
  multiplyPlane,
  type Plane,
  quantise,
  rawFrom,
  type RawImage,
  toSharp,
} from '../raster/raster.js';

/** A face in the photo being styled, in its pixels. */
export interface StyleFace {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Styles whose filters are sized for the whole picture and wash out a face's eyes, nose and mouth. */
export const FACE_KEEPING_STYLES: ReadonlySet<TStyle> = new Set(['cartoon', 'toy', 'oil']);

/**
 * Puts each face back into a styled picture, styled again at the face's own scale: the same look
 * (flat colours and ink for the cartoon, smooth plastic for the toy, paint patches for oil) with
 * edge-preserving filters a face's features survive — their radius a small share of the face
 * rather than of the picture — blended in through a soft ellipse, so the eyes, nose and mouth stay
 * legible while the rest keeps the bold whole-picture look.
 */
export async function keepFaces(
  photo: RawImage,
  styled: RawImage,
  style: TStyle,
  faces: StyleFace[],
  checkpoint: Checkpoint,
): Promise<RawImage> {
  if (!FACE_KEEPING_STYLES.has(style) || faces.length === 0) return styled;
  let out = styled;
  for (const face of faces.slice(0, 6)) {
    // The face with a margin for hair and chin; the ellipse fades out inside it.
    const margin = 0.35;
    const left = Math.max(0, Math.floor(face.x - face.width * margin));
    const top = Math.max(0, Math.floor(face.y - face.height * margin));
    const right = Math.min(photo.width, Math.ceil(face.x + face.width * (1 + margin)));
    const bottom = Math.min(photo.height, Math.ceil(face.y + face.height * (1 + margin)));
    const width = right - left;
    const height = bottom - top;
    if (width < 24 || height < 24) continue;
    const crop = await rawFrom(toSharp(photo).extract({ left, top, width, height }));
    const treated = await faceLook(crop, style, face.width);
    await checkpoint();
    out = blendEllipse(out, treated, { left, top, width, height }, face);
  }
  return out;
}

/** The style's look at a face's scale. */
async function faceLook(crop: RawImage, style: TStyle, faceWidth: number): Promise<RawImage> {
  // Features (an eye is about a fifth of the face wide) survive a filter a twentieth of the face.
  const radius = Math.max(1, Math.round(faceWidth / 45));
  const smooth = kuwahara(kuwahara(crop, radius), Math.max(1, radius - 1));
  switch (style) {
    case 'cartoon': {
      const vivid = await rawFrom(toSharp(smooth).modulate({ saturation: 1.35, brightness: 1.05 }));
      const flat = await quantise(vivid, 28);
      const lines = await inkLines(luminance(smooth), {
        sigma: Math.max(0.8, faceWidth / 260),
        tau: 0.99,
        epsilon: -0.012,
        phi: 60,
      });
      return multiplyPlane(flat, soften(lines), 0.8);
    }
    case 'toy':
      return rawFrom(toSharp(smooth).modulate({ saturation: 1.3, brightness: 1.06 }).linear(1.15, -16));
    default:
      return rawFrom(toSharp(smooth).modulate({ saturation: 1.3 }).linear(1.08, -8));
  }
}

/** Ink lines a little lighter, so a face's lines read as drawing, not as dirt. */
function soften(plane: Plane): Plane {
  const out = new Uint8Array(plane.data.length);
  for (let i = 0; i < out.length; i++) out[i] = plane.data[i]! < 150 ? 40 : 255;
  return { ...plane, data: out };
}

function blendEllipse(
  base: RawImage,
  patch: RawImage,
  at: { left: number; top: number; width: number; height: number },
  face: StyleFace,
): RawImage {
  const out = Buffer.from(base.data);
  const cx = face.x + face.width / 2 - at.left;
  const cy = face.y + face.height * 0.45 - at.top;
  const rx = face.width * 0.62;
  const ry = face.height * 0.72;
  for (let y = 0; y < at.height; y++) {
    for (let x = 0; x < at.width; x++) {
      const d = Math.hypot((x - cx) / rx, (y - cy) / ry);
      // Full strength inside the face, fading over the outer quarter of the ellipse.
      const t = Math.min(1, Math.max(0, (1 - d) / 0.25));
      if (t <= 0) continue;
      const w = 0.9 * t * t * (3 - 2 * t);
      const from = (y * at.width + x) * 3;
      const to = ((y + at.top) * base.width + x + at.left) * 3;
      for (let c = 0; c < 3; c++)
        out[to + c] = Math.round(patch.data[from + c]! * w + out[to + c]! * (1 - w));
    }
  }
  return { ...base, data: out };
}
