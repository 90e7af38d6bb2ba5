/**
 * How the local face swap's colour meets the target photo, on real portraits (fetched like the
 * tests do, see packages/imaging/src/testing/test-faces.ts): for each source → target pair, ΔE76 between
 * the swapped face's skin and the target's skin around it, the mean colour step across the seam,
 * and the worst redness on the seam beyond the target's own (see face-swap-colour.ts); the target's
 * own numbers before the swap are the floor. Report only.
 * Run: `node --import tsx bench/face-swap-colour.bench.ts` (SWAP_PNG_DIR=<dir> also writes the results).
 */
import path from 'node:path';
import { createFaceAnalyzer, decodeRgb, encodeRgb, swapFace } from '@mirra/imaging';
import { measureSwapColour } from '@mirra/imaging/testing';
import { loadTestFaces, type TestFaces } from '@mirra/imaging/testing';

const faces = await loadTestFaces();
const analyzer = createFaceAnalyzer();
const outDir = process.env.SWAP_PNG_DIR;

async function prepared(name: keyof TestFaces) {
  const photo = faces[name];
  const analysis = await analyzer.analyze(photo);
  const image = await decodeRgb(photo, { width: analysis.image.width, height: analysis.image.height });
  const mesh = (analysis.faces[0]?.mesh ?? []).map(([x, y]) => [x, y] as const);
  return { image, mesh };
}

const people = {
  astronaut: await prepared('astronaut'),
  graceHopper: await prepared('graceHopper'),
  cameraman: await prepared('cameraman'),
};
const pairs = [
  ['astronaut', 'graceHopper'],
  ['graceHopper', 'astronaut'],
  ['astronaut', 'cameraman'],
  ['graceHopper', 'cameraman'],
] as const;
const f = (value: number) => value.toFixed(1).padStart(5);
console.log(
  'source → target            skin ΔE  skin shift  cast  seam step  seam red+   (target alone: skin ΔE, seam step)',
);
for (const [from, to] of pairs) {
  const source = people[from];
  const target = people[to];
  const started = performance.now();
  const swap = swapFace({
    target: target.image,
    targetMesh: target.mesh,
    source: source.image,
    sourceMesh: source.mesh,
  });
  const seconds = (performance.now() - started) / 1000;
  const m = measureSwapColour(target.image, swap.image, swap.region, swap.mask);
  console.log(
    `${`${from} → ${to}`.padEnd(26)} ${f(m.skinDeltaE)}    ${f(m.skinShift)}    ${f(m.skinCast)}  ${f(m.seamStep)}      ${f(m.seamRedExcess)}` +
      `      (${f(m.before.skinDeltaE)}, ${f(m.before.seamStep)})   ${seconds.toFixed(3)} s`,
  );
  if (outDir) {
    await encodeRgb(swap.image)
      .png()
      .toFile(path.join(outDir, `swap-${from}-to-${to}.png`));
  }
}
