import sharp from 'sharp';
import { makesVideo } from '@mirra/contracts';
import { encodePng, type FaceAnalyzer, type RawImage, type StyleFace } from '@mirra/imaging';
import {
  EngineError,
  engineNote,
  type EngineImage,
  type EngineOutput,
  type EngineRequest,
} from '../engine.types.js';

/** Picture helpers of the local engine's pipelines (local.render.ts): frame shapes and faces. */

/**
 * A picture asked for in a frame shape (a story's 9:16, a post's 4:5) that its pipeline made in
 * the photo's own shape is cropped to it around what draws the eye, and the notes say so. A scene
 * is drawn in the shape to begin with.
 */
export async function inAskedShape(request: EngineRequest, output: EngineOutput): Promise<EngineOutput> {
  if (!request.aspect || makesVideo(request.mode) || !output.contentType.startsWith('image/')) return output;
  const [w, h] = request.aspect.split(':').map(Number) as [number, number];
  if (Math.abs(output.width / output.height - w / h) < 0.01) return output;
  const width = Math.min(output.width, Math.round((output.height * w) / h));
  const height = Math.min(output.height, Math.round((output.width * h) / w));
  const data = await sharp(output.data)
    .resize(width, height, { fit: 'cover', position: sharp.strategy.attention })
    // The local engine's label (EXIF) stays on the cropped picture.
    .keepMetadata()
    .png()
    .toBuffer();
  const note = engineNote('edit.cropped_aspect', `cropped to ${w}:${h}`, { width: w, height: h });
  return { ...output, data, width, height, notes: [...output.notes, note] };
}

/** The faces in a decoded photo, in its pixels (the analyser works on its own, smaller copy). */
export async function facesIn(photo: RawImage, analyzer: FaceAnalyzer): Promise<StyleFace[]> {
  const analysis = await analyzer.analyze(await encodePng(photo).toBuffer());
  const scale = photo.width / analysis.image.width;
  return analysis.faces.map(({ box }) => ({
    x: Math.round(box.x * scale),
    y: Math.round(box.y * scale),
    width: Math.round(box.width * scale),
    height: Math.round(box.height * scale),
  }));
}

/** The one photo a pipeline works on; any other number of photos is the request's mistake. */
export function singleImage(request: EngineRequest, what: string): EngineImage {
  const [image] = request.images;
  if (!image || request.images.length !== 1) {
    throw EngineError.badInput(
      'needs_one_photo',
      `${what} needs exactly one photo; this request has ${request.images.length}.`,
    );
  }
  return image;
}
