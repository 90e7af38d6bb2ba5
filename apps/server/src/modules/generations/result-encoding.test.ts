import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { encodeResultOriginal } from './result-encoding.js';

/** A photo-like picture: smooth gradients and fine noise, as engines produce. */
async function photoLikePng(width: number, height: number, alpha?: number): Promise<Buffer> {
  const channels = alpha === undefined ? 3 : 4;
  const pixels = Buffer.alloc(width * height * channels);
  let seed = 7;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const noise = (seed >> 16) % 6;
      const i = (y * width + x) * channels;
      pixels[i] = (x * 255) / width + noise;
      pixels[i + 1] = (y * 255) / height + noise;
      pixels[i + 2] = 128 + noise;
      if (alpha !== undefined) pixels[i + 3] = alpha;
    }
  }
  return sharp(pixels, { raw: { width, height, channels } }).png().toBuffer();
}

describe('encodeResultOriginal', () => {
  it('keeps an opaque PNG as a much smaller JPEG of the same size and look', async () => {
    const png = await photoLikePng(512, 384);
    const { data, contentType } = await encodeResultOriginal(png, 'image/png');
    expect(contentType).toBe('image/jpeg');
    expect(data.length).toBeLessThan(png.length / 2);
    const meta = await sharp(data).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 512, height: 384, chromaSubsampling: '4:4:4' });
    // Mean absolute difference per channel stays under 2 of 255.
    const [a, b] = await Promise.all([sharp(png).raw().toBuffer(), sharp(data).raw().toBuffer()]);
    let sum = 0;
    for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
    expect(sum / a.length).toBeLessThan(2);
  });

  it('keeps the engine label written into the picture', async () => {
    const png = await sharp(await photoLikePng(64, 64))
      .withExif({ IFD0: { ImageDescription: 'Made by the local engine' } })
      .png()
      .toBuffer();
    const { data } = await encodeResultOriginal(png, 'image/png');
    const { exif } = await sharp(data).metadata();
    expect(exif?.toString('latin1')).toContain('Made by the local engine');
  });

  it('treats a PNG whose alpha channel is fully opaque as opaque', async () => {
    const png = await photoLikePng(64, 64, 255);
    expect((await encodeResultOriginal(png, 'image/png')).contentType).toBe('image/jpeg');
  });

  it('keeps PNG where transparency is used, and other formats as they come', async () => {
    const transparent = await photoLikePng(64, 64, 128);
    expect(await encodeResultOriginal(transparent, 'image/png')).toEqual({
      data: transparent,
      contentType: 'image/png',
    });
    const video = Buffer.from('not decoded');
    expect(await encodeResultOriginal(video, 'video/mp4')).toEqual({ data: video, contentType: 'video/mp4' });
  });
});
