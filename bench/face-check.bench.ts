/**
 * Seconds per photo check at 1024 px: decode + face analysis (Human on tfjs-wasm) + every check
 * of the personal model's upload, on real portraits (fetched like the tests do, see
 * apps/server/src/test/test-faces.ts). Report only.
 * Run: `node --import tsx bench/face-check.bench.ts` (BENCH_PHOTOS photos, 30 by default).
 */
import sharp from 'sharp';
import { createFaceAnalyzer } from '../apps/server/src/modules/faces/face-analyzer.js';
import { checkPhoto } from '../apps/server/src/modules/faces/photo-checks.models.js';
import { loadTestFaces, makePhotoSet } from '../apps/server/src/test/test-faces.js';

const PHOTOS = Number(process.env.BENCH_PHOTOS ?? 30);
const SIDE = 1024;

const faces = await loadTestFaces();
// Phone-like inputs: JPEGs whose longest side is 1024 px, one person in varied framing and light.
const portraits = [faces.astronaut, faces.graceHopper];
const inputs: Buffer[] = [];
for (const portrait of portraits) {
  for (const photo of await makePhotoSet(portrait, Math.ceil(PHOTOS / portraits.length))) {
    inputs.push(
      await sharp(photo)
        .resize({ width: SIDE, height: SIDE, fit: 'inside' })
        .jpeg({ quality: 90 })
        .toBuffer(),
    );
  }
}
inputs.length = PHOTOS;

const analyzer = createFaceAnalyzer();
let started = performance.now();
await analyzer.warmUp();
const loadSeconds = (performance.now() - started) / 1000;

// The first detection compiles the wasm kernels: timed on its own, like a worker's first photo.
started = performance.now();
await analyzer.analyze(inputs[0] ?? faces.astronaut);
const firstSeconds = (performance.now() - started) / 1000;

const seconds: number[] = [];
const references: number[][] = [];
const verdicts = new Map<string, number>();
for (const input of inputs) {
  started = performance.now();
  const analysis = await analyzer.analyze(input);
  const check = checkPhoto({ analysis, references });
  seconds.push((performance.now() - started) / 1000);
  for (const code of check.ok ? ['ok'] : check.problems) verdicts.set(code, (verdicts.get(code) ?? 0) + 1);
  if (check.ok && analysis.faces[0]) {
    if (references.length < 15) references.push(analysis.faces[0].descriptor);
  }
}
seconds.sort((a, b) => a - b);
const at = (q: number) => seconds[Math.min(seconds.length - 1, Math.floor(q * seconds.length))] ?? 0;
const mean = seconds.reduce((a, b) => a + b, 0) / seconds.length;

// The first 15 accepted photos become the references, so the second person's photos are refused.
const tally = [...verdicts].map(([code, count]) => `${code} ${count}`).join(', ');
console.log(`face check at ${SIDE} px, ${seconds.length} photos of 2 people (${tally})`);
console.log(`  model load      ${loadSeconds.toFixed(2)} s (once per process)`);
console.log(`  first photo     ${firstSeconds.toFixed(3)} s`);
console.log(
  `  per photo       mean ${mean.toFixed(3)} s, p50 ${at(0.5).toFixed(3)} s, p95 ${at(0.95).toFixed(3)} s`,
);
console.log(`  throughput      ${(1 / mean).toFixed(1)} photos/s on one process`);
