/**
 * Seconds per photo check at 1024 px: decode + face analysis (Human on tfjs-wasm) + every check
 * of the personal model's upload, on real portraits (fetched like the tests do, see
 * packages/imaging/src/testing/test-faces.ts). Then seconds per local face swap onto a 1024 px target:
 * the whole engine step (target analysis, reference pick and decode, warp, colour, Poisson blend)
 * and the pixel work alone. Report only.
 * Run: `node --import tsx bench/face-check.bench.ts` (BENCH_PHOTOS photos, 30 by default;
 * BENCH_SWAPS face swaps, 8 by default).
 */
import sharp from 'sharp';
import {
  createFaceAnalyzer,
  decodeRgb,
  buildFaceProfile,
  pickReferenceForYaw,
  swapFace,
  checkPhoto,
  faceSwapOnPhoto,
} from '@mirra/imaging';
import { loadTestFaces, makePhotoSet } from '@mirra/imaging/testing';

const PHOTOS = Number(process.env.BENCH_PHOTOS ?? 30);
const SWAPS = Number(process.env.BENCH_SWAPS ?? 8);
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

// --- Local face swap at 1024 px ----------------------------------------------------------------
// The model: the first person's 15 photos (as training builds it); the target: the other person.
const modelPhotos = new Map<string, Buffer>();
const profilePhotos = [];
for (const [index, photo] of (await makePhotoSet(faces.astronaut, 15)).entries()) {
  modelPhotos.set(`p${index}`, photo);
  profilePhotos.push({ photoId: `p${index}`, analysis: await analyzer.analyze(photo) });
}
const profile = buildFaceProfile(profilePhotos);
const faceModel = {
  uuid: 'bench',
  profile,
  loadReferencePhoto: async (photoId: string) => modelPhotos.get(photoId) ?? faces.astronaut,
};
const target = await sharp(faces.graceHopper)
  .resize({ width: SIDE, height: SIDE, fit: 'inside' })
  .jpeg({ quality: 90 })
  .toBuffer();
const targetMeta = await sharp(target).metadata();
const engineImage = {
  data: target,
  contentType: 'image/jpeg',
  width: targetMeta.width ?? SIDE,
  height: targetMeta.height ?? SIDE,
};
const swapSeconds: number[] = [];
for (let i = 0; i < SWAPS + 1; i++) {
  started = performance.now();
  await faceSwapOnPhoto(engineImage, faceModel, analyzer, async () => {});
  // The first run compiles the hot loops; it is left out like the first photo above.
  if (i > 0) swapSeconds.push((performance.now() - started) / 1000);
}
// The pixel work alone: warp, colour transfer and Poisson blend of a prepared pair.
const targetAnalysis = await analyzer.analyze(target);
const targetRgb = await decodeRgb(target, { maxSide: 2048 });
const scale = targetRgb.width / targetAnalysis.image.width;
const targetMesh = (targetAnalysis.faces[0]?.mesh ?? []).map(([x, y]) => [x * scale, y * scale] as const);
const reference = pickReferenceForYaw(profile, 0);
const sourceRgb = await decodeRgb(modelPhotos.get(reference?.photoId ?? '') ?? faces.astronaut, {
  width: reference?.imageWidth ?? 512,
  height: reference?.imageHeight ?? 512,
});
const pixelSeconds: number[] = [];
for (let i = 0; i < SWAPS; i++) {
  started = performance.now();
  swapFace({
    target: targetRgb,
    targetMesh,
    source: sourceRgb,
    sourceMesh: (reference?.mesh ?? []).map(([x, y]) => [x, y] as const),
  });
  pixelSeconds.push((performance.now() - started) / 1000);
}
const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const average = sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length);
  const p = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return `mean ${average.toFixed(3)} s, p50 ${p(0.5).toFixed(3)} s, p95 ${p(0.95).toFixed(3)} s`;
};
console.log(
  `local face swap onto a ${engineImage.width}×${engineImage.height} target (face ${Math.round(
    (targetAnalysis.faces[0]?.box.width ?? 0) * scale,
  )} px wide), ${SWAPS} runs`,
);
console.log(`  whole step      ${summary(swapSeconds)}`);
console.log(`  pixel work      ${summary(pixelSeconds)}`);
