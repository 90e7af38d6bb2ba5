import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { createFaceAnalyzer } from '../faces/face-analyzer.js';
import { meanAbsoluteError, psnr, ssim } from '../testing/image-quality.js';
import { ageLikeOldPrint } from '../testing/old-photo.js';
import { loadTestFaces } from '../testing/test-faces.js';
import { restoreOldPhoto } from './restore.js';

const rgb = async (data: Buffer) => {
  const decoded = await sharp(data)
    .toColourspace('srgb')
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: decoded.data, width: decoded.info.width, height: decoded.info.height };
};

const analyzer = createFaceAnalyzer();
let faces: Awaited<ReturnType<typeof loadTestFaces>>;

beforeAll(async () => {
  faces = await loadTestFaces();
  await analyzer.warmUp();
}, 60_000);

describe('restore tool', () => {
  it('brings an aged, scratched, dusty, yellowed portrait measurably back toward the original', async () => {
    const original = await rgb(faces.astronaut);
    const aged = ageLikeOldPrint(original);
    const agedPng = await sharp(aged.image.data, {
      raw: { width: original.width, height: original.height, channels: 3 },
    })
      .png()
      .toBuffer();
    const fractions: number[] = [];
    const result = await restoreOldPhoto(agedPng, {
      faces: analyzer,
      upscaleSmall: false,
      onProgress: (fraction) => fractions.push(fraction),
    });
    expect(result).toMatchObject({
      contentType: 'image/jpeg',
      width: original.width,
      height: original.height,
    });
    const restored = await rgb(result.data);
    const before = { psnr: psnr(original, aged.image), ssim: ssim(original, aged.image) };
    const after = { psnr: psnr(original, restored), ssim: ssim(original, restored) };
    const marks = {
      before: meanAbsoluteError(original, aged.image, aged.defects),
      after: meanAbsoluteError(original, restored, aged.defects),
    };
    process.stdout.write(
      `aged → restored: PSNR ${before.psnr.toFixed(2)} → ${after.psnr.toFixed(2)} dB, SSIM ${before.ssim.toFixed(3)} → ${after.ssim.toFixed(3)}, ` +
        `error on the scratches and specks ${marks.before.toFixed(1)} → ${marks.after.toFixed(1)} (of 255)\n`,
    );
    expect(after.psnr).toBeGreaterThan(before.psnr + 8);
    expect(after.ssim).toBeGreaterThan(before.ssim + 0.1);
    // The marks are gone: their pixels are about as close to the original as the rest of the photo.
    expect(marks.after).toBeLessThan(marks.before / 4);
    expect(marks.after).toBeLessThan(4 * meanAbsoluteError(original, restored));
    const codes = result.notes.map((note) => note.code);
    expect(codes).toEqual(['restore.defects', 'restore.denoised', 'restore.levels', 'restore.faces']);
    const defects = result.notes.find((note) => note.code === 'restore.defects')!;
    expect(defects.params.count).toBeGreaterThanOrEqual(aged.scratches);
    expect(result.notes.find((note) => note.code === 'restore.faces')!.params.count).toBe(1);
    expect(fractions.at(-1)).toBe(1);
    expect([...fractions].sort((a, b) => a - b)).toEqual(fractions);
  });

  it('leaves a clean photo nearly as it was', async () => {
    const original = await rgb(faces.graceHopper);
    const result = await restoreOldPhoto(faces.graceHopper, { upscaleSmall: false });
    const restored = await rgb(result.data);
    expect(psnr(original, restored)).toBeGreaterThan(30);
    expect(ssim(original, restored)).toBeGreaterThan(0.97);
    expect(result.notes.map((note) => note.code)).not.toContain('restore.denoised');
  });

  it('enlarges a small scan ×2 with the super-resolution network', async () => {
    const small = await sharp(faces.astronaut).resize(150, 150).png().toBuffer();
    const result = await restoreOldPhoto(small);
    expect(result).toMatchObject({ width: 300, height: 300 });
    expect(result.notes.map((note) => note.code)).toContain('upscale.network');
  });
});
