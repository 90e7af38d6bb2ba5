import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { MAX_UPSCALE_SIDE } from '../pipelines/editing.models.js';
import { psnr, ssim } from '../testing/image-quality.js';
import { loadTestFaces } from '../testing/test-faces.js';
import { planUpscale, upscaleImage } from './upscale.js';

const rgb = async (image: sharp.Sharp) => {
  const { data, info } = await image.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
};

describe('upscale tool', () => {
  it('makes a portrait shrunk ×4 closer to the original than a Lanczos resize, by PSNR and SSIM', async () => {
    const { astronaut, graceHopper } = await loadTestFaces();
    for (const [name, photo] of [
      ['astronaut', astronaut],
      ['graceHopper', graceHopper],
    ] as const) {
      // The face and shoulders at 256 px, shrunk to 64 px and made 256 px again.
      const original = await rgb(sharp(photo).resize(256, 256, { fit: 'cover', position: 'top' }));
      const small = await sharp(original.data, { raw: { width: 256, height: 256, channels: 3 } })
        .resize(64, 64, { kernel: sharp.kernel.lanczos3 })
        .png()
        .toBuffer();
      const lanczos = await rgb(sharp(small).resize(256, 256, { kernel: sharp.kernel.lanczos3 }));
      const fractions: number[] = [];
      const result = await upscaleImage(small, 4, { onProgress: (fraction) => fractions.push(fraction) });
      expect(result).toMatchObject({ contentType: 'image/jpeg', width: 256, height: 256 });
      expect(result.notes.map((note) => note.code)).toEqual(['upscale.network']);
      const upscaled = await rgb(sharp(result.data));
      const scores = {
        psnr: { lanczos: psnr(original, lanczos), network: psnr(original, upscaled) },
        ssim: { lanczos: ssim(original, lanczos), network: ssim(original, upscaled) },
      };
      // The figures, for the record (PSNR in dB; SSIM 0–1).
      process.stdout.write(
        `${name} 64→256 px: PSNR ${scores.psnr.lanczos.toFixed(2)} dB (Lanczos) → ${scores.psnr.network.toFixed(2)} dB (ESRGAN); ` +
          `SSIM ${scores.ssim.lanczos.toFixed(4)} → ${scores.ssim.network.toFixed(4)}\n`,
      );
      expect(scores.psnr.network).toBeGreaterThan(scores.psnr.lanczos + 0.2);
      expect(scores.ssim.network).toBeGreaterThan(scores.ssim.lanczos + 0.005);
      expect(fractions.at(-1)).toBe(1);
      expect([...fractions].sort((a, b) => a - b)).toEqual(fractions);
    }
  });

  it('keeps transparency: a cut-out comes back as a PNG with its alpha enlarged', async () => {
    const width = 40;
    const height = 30;
    const pixels = Buffer.alloc(width * height * 4);
    for (let i = 0; i < width * height; i++) {
      const x = i % width;
      pixels.set([200, 80, 40, x < width / 2 ? 255 : 0], i * 4);
    }
    const png = await sharp(pixels, { raw: { width, height, channels: 4 } })
      .png()
      .toBuffer();
    const result = await upscaleImage(png, 2);
    expect(result).toMatchObject({ contentType: 'image/png', width: 80, height: 60 });
    const { data, info } = await sharp(result.data).raw().toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(4);
    expect(data[(30 * 80 + 10) * 4 + 3]).toBe(255);
    expect(data[(30 * 80 + 70) * 4 + 3]).toBe(0);
  });

  it('caps the result at the longest side allowed and leaves a photo already that large alone', () => {
    expect(planUpscale(512, 384, 4)).toMatchObject({
      kind: 'network',
      modelScale: 4,
      width: 2048,
      height: 1536,
    });
    // ×4 would pass the cap: the network enlarges ×2 and the rest is a resize to the cap.
    expect(planUpscale(1500, 1000, 4)).toMatchObject({
      kind: 'network',
      modelScale: 2,
      width: MAX_UPSCALE_SIDE,
      height: 2731,
      capped: true,
      factor: 2.73,
    });
    expect(planUpscale(3000, 2000, 2)).toMatchObject({
      kind: 'classical',
      width: MAX_UPSCALE_SIDE,
      capped: true,
    });
    expect(planUpscale(MAX_UPSCALE_SIDE, 1000, 2)).toEqual({ kind: 'none' });
  });

  it('stops when the job is cancelled', async () => {
    const { astronaut } = await loadTestFaces();
    const small = await sharp(astronaut).resize(240, 240).png().toBuffer();
    const controller = new AbortController();
    const stopped = upscaleImage(small, 2, {
      signal: controller.signal,
      onProgress: (fraction) => {
        if (fraction > 0.1) controller.abort(new Error('stopped by the user'));
      },
    });
    await expect(stopped).rejects.toThrow('stopped by the user');
  });
});
