import sharp from 'sharp';
import type { CanvasPlan } from './outpaint.js';

/**
 * A photo set on a larger canvas (planCanvas) for a model that fills masked parts (an outpaint at a provider):
 * the new canvas mirrors the photo's edges, which fill models continue better than a flat colour,
 * and the mask is white where the canvas is new (the part to draw) and black over the photo.
 */
export async function canvasWithMask(
  photo: Buffer,
  canvas: CanvasPlan,
): Promise<{ image: Buffer; mask: Buffer; width: number; height: number }> {
  const { width = 0, height = 0 } = await sharp(photo).metadata();
  const edges = {
    top: canvas.top,
    left: canvas.left,
    bottom: canvas.height - height - canvas.top,
    right: canvas.width - width - canvas.left,
  };
  const image = await sharp(photo)
    .extend({ ...edges, extendWith: 'mirror' })
    .png()
    .toBuffer();
  const keep = await sharp({ create: { width, height, channels: 3, background: '#000000' } })
    .png()
    .toBuffer();
  const mask = await sharp({
    create: { width: canvas.width, height: canvas.height, channels: 3, background: '#ffffff' },
  })
    .composite([{ input: keep, left: canvas.left, top: canvas.top }])
    .png()
    .toBuffer();
  return { image, mask, width: canvas.width, height: canvas.height };
}
