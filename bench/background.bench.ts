/**
 * Seconds per local picture tool at 1024 px on the long side, on a real portrait (Grace Hopper,
 * fetched like the tests do: packages/imaging/src/testing/test-faces.ts): the background removed
 * (a PNG with transparency), replaced by a colour, a blur and a drawn scene; a brush-sized and a
 * large inpaint; an extend to 16:9. The baseline, measured in the same run, is what every tool
 * pays anyway: decoding the photo and encoding the result as PNG; each tool is also given as a
 * ratio of it. The selfie model is loaded (and timed) once before anything else.
 * Report only. Run: `npm run bench:background` (BENCH_REPEATS runs of each, 3 by default; the
 * median is printed). The API's latency while these run as jobs: `BENCH_MODE=background npm run
 * bench:api-jobs` (and `BENCH_MODE=inpaint`).
 */
import { resourceUsage } from 'node:process';
import sharp from 'sharp';
import {
  createPersonSegmenter,
  cutOutPerson,
  decodePhoto,
  encodePng,
  inpaint,
  outpaint,
  replaceBackground,
} from '@mirra/imaging';
import { loadTestFaces } from '@mirra/imaging/testing';

const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
const SIDE = 1024;

const faces = await loadTestFaces();
const photo = await sharp(faces.graceHopper).resize(SIDE, SIDE, { fit: 'inside' }).png().toBuffer();
const { width = 0, height = 0 } = await sharp(photo).metadata();

/** A white square on black at the photo's size: the painted part of an inpaint. */
function maskOf(left: number, top: number, size: number) {
  return sharp({ create: { width, height, channels: 3, background: '#000000' } })
    .composite([
      { input: { create: { width: size, height: size, channels: 3, background: '#ffffff' } }, left, top },
    ])
    .png()
    .toBuffer();
}
// A brush stroke's worth on the backdrop beside the cap, and a quarter of the picture's width.
const BRUSH = Math.round(SIDE / 10);
const LARGE = Math.round(SIDE / 4);
const brushMask = await maskOf(Math.round(width * 0.8), Math.round(height * 0.17), BRUSH);
const largeMask = await maskOf(Math.round(width * 0.02), Math.round(height * 0.2), LARGE);

const segmenter = createPersonSegmenter();
const loadStart = performance.now();
await segmenter.segment({ data: Buffer.alloc(64 * 64 * 3, 128), width: 64, height: 64 });
const loadSeconds = (performance.now() - loadStart) / 1000;

async function median(run: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    const start = performance.now();
    await run();
    times.push((performance.now() - start) / 1000);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const baseline = await median(async () => encodePng(await decodePhoto(photo)).toBuffer());
const rows: Array<[string, number]> = [
  ['background removed (transparent PNG)', await median(() => cutOutPerson(photo, { segmenter }))],
  [
    'background colour',
    await median(() => replaceBackground(photo, { kind: 'colour', colour: '#2f6fd0' }, { segmenter })),
  ],
  ['background blurred', await median(() => replaceBackground(photo, { kind: 'blur' }, { segmenter }))],
  [
    'background scene ("a beach at sunset")',
    await median(() =>
      replaceBackground(photo, { kind: 'scene', prompt: 'a beach at sunset', seed: 3 }, { segmenter }),
    ),
  ],
  [`inpaint, ${BRUSH} px square`, await median(() => inpaint(photo, brushMask, { seed: 3 }))],
  [`inpaint, ${LARGE} px square`, await median(() => inpaint(photo, largeMask, { seed: 3 }))],
  ['outpaint to 16:9', await median(() => outpaint(photo, { aspect: '16:9' }, { seed: 3, segmenter }))],
];

console.log(`Local picture tools on a ${width}×${height} portrait, median of ${REPEATS} runs:`);
console.log(`  selfie model load (once per process): ${loadSeconds.toFixed(2)} s`);
console.log(`  ${'decode + PNG encode (baseline)'.padEnd(40)}${baseline.toFixed(2).padStart(7)} s   1.0×`);
for (const [name, seconds] of rows) {
  console.log(
    `  ${name.padEnd(40)}${seconds.toFixed(2).padStart(7)} s${`${(seconds / baseline).toFixed(1)}×`.padStart(7)}`,
  );
}
console.log(`  peak memory: ${(resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
