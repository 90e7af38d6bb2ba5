/**
 * Renders local-engine face photos from prompts for a model built from the astronaut's photo set,
 * to look at: `node --import tsx bench/face-photo-render.ts <dir>` writes face-photo-<n>.png there.
 */
import path from 'node:path';
import sharp from 'sharp';
import { createFaceAnalyzer, buildFaceProfile, facePhotoFromPrompt } from '@mirra/imaging';
import { loadTestFaces, makePhotoSet } from '@mirra/imaging/testing';

const outDir = process.argv[2] ?? '.';
const faces = await loadTestFaces();
const analyzer = createFaceAnalyzer();
const person = process.env.PERSON === 'grace' ? faces.graceHopper : faces.astronaut;
const photos = new Map<string, Buffer>();
const analysed = [];
for (const [index, photo] of (await makePhotoSet(person, 15)).entries()) {
  photos.set(`p${index}`, photo);
  analysed.push({ photoId: `p${index}`, analysis: await analyzer.analyze(photo) });
}
const faceModel = {
  uuid: 'render',
  profile: buildFaceProfile(analysed),
  loadReferencePhoto: async (photoId: string) => photos.get(photoId) ?? person,
};
const prompts: [string, number][] = [
  ['a beach at sunset', 11],
  ['a portrait in a forest', 3],
  ['a city at night', 7],
  ['snowy mountains', 5],
];
for (const [index, [prompt, seed]] of prompts.entries()) {
  const started = performance.now();
  const outcome = await facePhotoFromPrompt(prompt, seed, faceModel, async () => {});
  const seconds = (performance.now() - started) / 1000;
  const file = path.join(outDir, `face-photo-${index}.png`);
  await sharp(outcome.image.data, {
    raw: { width: outcome.image.width, height: outcome.image.height, channels: 3 },
  })
    .png()
    .toFile(file);
  const check = await analyzer.analyze(await sharp(file).toBuffer());
  console.log(
    `${prompt} (seed ${seed}): ${seconds.toFixed(2)} s, faces found ${check.faces.length}, ${file}`,
  );
}
