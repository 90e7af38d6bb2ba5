/**
 * Camera frames for the live check's tests, made from one portrait (no offline set has a real
 * person filmed turning their head).
 *
 * - `turnedHead`: the portrait with its head turned by the face-motion rig of the video pipeline,
 *   which moves every point of the face by its depth on an ellipsoid with the nose standing out
 *   (so the nose slides across the cheeks as in a real turn). It is a 2D warp, not a real turn:
 *   it proves the check follows the mesh's pose and non-planar motion, not that a real camera
 *   turn of a real person passes (that needs a person in front of a camera).
 * - `tiltedPrint`: the portrait as a flat print held up and tilted about its vertical axis (a
 *   true perspective transform of the plane), which is what a photo shown to the camera does.
 */
import sharp from 'sharp';
import { createFaceAnalyzer } from '../faces/face-analyzer.js';
import { FACE_OVAL } from '../faces/face-geometry.models.js';
import { buildFaceRig, type FaceShape, renderFaceMotion } from '../video/face-motion.models.js';

const analyzer = createFaceAnalyzer();
const MAX_SIDE = 1024;

async function rgb(photo: Buffer) {
  const { data, info } = await sharp(photo)
    .rotate()
    .flatten({ background: '#ffffff' })
    .resize({ width: MAX_SIDE, height: MAX_SIDE, fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: Uint8Array.from(data), width: info.width, height: info.height };
}

function jpeg(data: Uint8Array, width: number, height: number): Promise<Buffer> {
  return sharp(Buffer.from(data), { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** The portrait with the head turned by `yaw` radians of the rig (its sign: towards the image's right). */
export async function turnedHead(portrait: Buffer, yaw: number): Promise<Buffer> {
  const image = await rgb(portrait);
  const analysis = await analyzer.analyze(await jpeg(image.data, image.width, image.height));
  const face = analysis.faces[0];
  if (!face) throw new Error('turnedHead: no face in the portrait');
  const at = (point: readonly number[] | undefined) => [point?.[0] ?? 0, point?.[1] ?? 0] as const;
  const l = face.landmarks;
  const shape: FaceShape = {
    oval: FACE_OVAL.map((index) => at(face.mesh[index])),
    noseTip: at(l.noseTip),
    eyes: [
      {
        outer: at(l.rightEyeOuter),
        inner: at(l.rightEyeInner),
        upper: at(l.rightEyeUpper),
        lower: at(l.rightEyeLower),
      },
      {
        outer: at(l.leftEyeOuter),
        inner: at(l.leftEyeInner),
        upper: at(l.leftEyeUpper),
        lower: at(l.leftEyeLower),
      },
    ],
    mouthCorners: [at(l.mouthRight), at(l.mouthLeft)],
  };
  const size = { width: image.width, height: image.height };
  const frame = Uint8Array.from(image.data);
  renderFaceMotion({
    canvas: image,
    frame,
    frameSize: size,
    window: { left: 0, top: 0, width: image.width, height: image.height },
    rig: buildFaceRig(shape, size),
    pose: { yaw, pitch: 0, roll: 0, smile: 0, blink: 0 },
  });
  return jpeg(frame, image.width, image.height);
}

/**
 * The portrait as a flat print turned by `angle` radians about its vertical centre line and seen
 * by a camera `distance` picture-widths away (a pinhole projection of the plane), on grey.
 */
export async function tiltedPrint(portrait: Buffer, angle: number, distance = 1.5): Promise<Buffer> {
  const image = await rgb(portrait);
  const { width, height, data } = image;
  const out = new Uint8Array(width * height * 3).fill(128);
  const focal = distance * width;
  const cx = width / 2;
  const cy = height / 2;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  for (let v = 0; v < height; v += 1) {
    for (let u = 0; u < width; u += 1) {
      // The ray through output pixel (u, v) meets the turned plane at picture coordinate s (along
      // its width) and t (along its height): u' = f·s·cos / (f + s·sin), v' = f·t / (f + s·sin).
      const du = u - cx;
      const dv = v - cy;
      const s = (du * focal) / (focal * cos - du * sin);
      const depth = focal + s * sin;
      if (depth <= 0) continue;
      const t = (dv * depth) / focal;
      const x = Math.round(s + cx);
      const y = Math.round(t + cy);
      if (x < 0 || y < 0 || x >= width || y >= height) continue;
      const from = (y * width + x) * 3;
      const to = (v * width + u) * 3;
      out[to] = data[from] ?? 0;
      out[to + 1] = data[from + 1] ?? 0;
      out[to + 2] = data[from + 2] ?? 0;
    }
  }
  return jpeg(out, width, height);
}
