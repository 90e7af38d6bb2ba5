/**
 * Seconds per local upscale and restore (the tools the local engine runs for the upscale and
 * restore modes), on a real portrait fetched like the tests do (packages/imaging/src/testing/
 * test-faces.ts), each against a baseline measured in the same run: a Lanczos resize to the same
 * size (what the editor's upscale did before the network). Also how close each result is to the
 * original (PSNR, SSIM), and the process's peak memory. Report only.
 * Run: `npm run bench:upscale` (BENCH_UPSCALE_RUNS runs each, 2 by default; UPSCALE_PNG_DIR=<dir>
 * also writes the pictures, side by side with the Lanczos resize).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { resourceUsage } from 'node:process';
import sharp from 'sharp';
import { createFaceAnalyzer, restoreOldPhoto, upscaleImage } from '@mirra/imaging';
import { ageLikeOldPrint, loadTestFaces, psnr, ssim } from '@mirra/imaging/testing';

const RUNS = Number(process.env.BENCH_UPSCALE_RUNS ?? 2);
const outDir = process.env.UPSCALE_PNG_DIR;
const faces = await loadTestFaces();
const analyzer = createFaceAnalyzer();
await analyzer.warmUp();

const rgb = async (image: sharp.Sharp) => {
  const { data, info } = await image.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
};

/** The median wall seconds of `RUNS` runs, and the last run's result. */
async function timed<T>(run: () => Promise<T>): Promise<{ seconds: number; result: T }> {
  const times: number[] = [];
  let result!: T;
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    result = await run();
    times.push((performance.now() - started) / 1000);
  }
  times.sort((a, b) => a - b);
  return { seconds: times[Math.floor(times.length / 2)]!, result };
}

const lanczos = (data: Buffer, width: number, height: number) => () =>
  sharp(data).resize(width, height, { kernel: sharp.kernel.lanczos3 }).jpeg({ quality: 92 }).toBuffer();

const rows: string[] = [];
const row = (name: string, seconds: number, baseline: number, quality: string) =>
  rows.push(
    `${name.padEnd(44)} ${seconds.toFixed(2).padStart(7)} s  ${(seconds / baseline).toFixed(1).padStart(6)}×  ${quality}`,
  );

// Upscale ×4 of a 512 px photo (to 2048 px), and the same photo's 128 px copy ×4 scored against it.
const portrait = await sharp(faces.graceHopper)
  .resize(512, 512, { fit: 'cover', position: 'top' })
  .png()
  .toBuffer();
const original = await rgb(sharp(portrait));
const small = await sharp(portrait).resize(128, 128, { kernel: sharp.kernel.lanczos3 }).png().toBuffer();
await upscaleImage(small, 4); // loads the ×4 weights before anything is timed
const baseline4 = await timed(lanczos(portrait, 2048, 2048));
row('Lanczos 512 → 2048 px (baseline)', baseline4.seconds, baseline4.seconds, '');
const upscale4 = await timed(() => upscaleImage(portrait, 4));
row('upscale ×4, 512 → 2048 px', upscale4.seconds, baseline4.seconds, upscale4.result.notes[0]!.code ?? '');
const scoredSmall = await timed(() => upscaleImage(small, 4));
const lanczosSmall = await rgb(sharp(small).resize(512, 512, { kernel: sharp.kernel.lanczos3 }));
const networkSmall = await rgb(sharp(scoredSmall.result.data));
row(
  'upscale ×4, 128 → 512 px (scored)',
  scoredSmall.seconds,
  baseline4.seconds,
  `PSNR ${psnr(original, lanczosSmall).toFixed(2)} → ${psnr(original, networkSmall).toFixed(2)} dB, ` +
    `SSIM ${ssim(original, lanczosSmall).toFixed(3)} → ${ssim(original, networkSmall).toFixed(3)} (Lanczos → network)`,
);
const upscale2 = await timed(() => upscaleImage(portrait, 2));
row('upscale ×2, 512 → 1024 px', upscale2.seconds, baseline4.seconds, '');

// Restore of a 1024 px portrait aged like an old print (faded, yellowed, grain, scratches, dust).
const big = await rgb(sharp(faces.graceHopper).resize(1024, 1024, { fit: 'cover', position: 'top' }));
const aged = ageLikeOldPrint(big);
const agedPng = await sharp(aged.image.data, { raw: { width: 1024, height: 1024, channels: 3 } })
  .png()
  .toBuffer();
const restoreBaseline = await timed(lanczos(agedPng, 1024, 1024));
row('re-encode of the 1024 px photo (baseline)', restoreBaseline.seconds, restoreBaseline.seconds, '');
const restored = await timed(() => restoreOldPhoto(agedPng, { faces: analyzer }));
const restoredRgb = await rgb(sharp(restored.result.data));
row(
  'restore, 1024 px aged portrait',
  restored.seconds,
  restoreBaseline.seconds,
  `PSNR ${psnr(big, aged.image).toFixed(2)} → ${psnr(big, restoredRgb).toFixed(2)} dB, ` +
    `SSIM ${ssim(big, aged.image).toFixed(3)} → ${ssim(big, restoredRgb).toFixed(3)} (aged → restored)`,
);

console.log(`median of ${RUNS} runs each; ratio to the baseline above it`);
for (const line of rows) console.log(line);
console.log(`peak memory: ${(resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);

if (outDir) {
  const sideBySide = async (left: Buffer, right: Buffer, width: number, height: number) =>
    sharp({ create: { width: width * 2, height, channels: 3, background: '#000000' } })
      .composite([
        { input: await sharp(left).resize(width, height).toBuffer(), left: 0, top: 0 },
        { input: await sharp(right).resize(width, height).toBuffer(), left: width, top: 0 },
      ])
      .png()
      .toBuffer();
  const lanczosSmallPng = await sharp(small)
    .resize(512, 512, { kernel: sharp.kernel.lanczos3 })
    .png()
    .toBuffer();
  await writeFile(
    path.join(outDir, 'upscale-x4-lanczos-vs-network.png'),
    await sideBySide(lanczosSmallPng, scoredSmall.result.data, 512, 512),
  );
  await writeFile(path.join(outDir, 'upscale-x4-2048.jpg'), upscale4.result.data);
  await writeFile(
    path.join(outDir, 'restore-aged-vs-restored.png'),
    await sideBySide(agedPng, restored.result.data, 1024, 1024),
  );
  console.log(`pictures in ${outDir}`);
}
