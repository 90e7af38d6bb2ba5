import sharp from 'sharp';
import { planScene } from '../scene/scene.models.js';
import { renderScene } from '../scene/scene.render.js';
import { toSharp } from '../raster/raster.js';
import type { BackgroundChoice } from './background.js';

/**
 * A cut-out person (a PNG whose alpha is the person, as a provider's background remover returns
 * it) put in front of what was chosen: a colour, the original photo blurred, or a drawn scene from
 * the description. The provider only cuts out; what goes behind is composed here, the same for
 * every engine. A transparent choice returns the cut-out as it is.
 */
export async function composeBehindCutOut(
  cutOut: Buffer,
  photo: Buffer,
  background: BackgroundChoice,
): Promise<{ data: Buffer; width: number; height: number }> {
  const { width = 0, height = 0 } = await sharp(cutOut).metadata();
  if (background.kind === 'transparent') return { data: cutOut, width, height };
  let backdrop: sharp.Sharp;
  if (background.kind === 'colour') {
    backdrop = sharp({ create: { width, height, channels: 3, background: background.colour } });
  } else if (background.kind === 'blur') {
    backdrop = sharp(photo)
      .resize(width, height, { fit: 'cover' })
      .blur(Math.max(6, Math.round(width / 60)));
  } else {
    const scene = await renderScene(planScene(background.prompt, background.seed));
    backdrop = toSharp(scene).resize(width, height, { fit: 'cover' });
  }
  const plate = await backdrop.removeAlpha().png().toBuffer();
  const data = await sharp(plate)
    .composite([{ input: cutOut }])
    .png()
    .toBuffer();
  return { data, width, height };
}
