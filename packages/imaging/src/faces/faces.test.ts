import { createRequire } from 'node:module';
import path from 'node:path';
import type * as HumanModule from '@vladmandic/human';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  blurPhoto,
  composeSideBySide,
  darkenPhoto,
  loadTestFaces,
  makePhotoSet,
  shakePhoto,
  shrinkIntoCanvas,
  type TestFaces,
} from '../testing/test-faces.js';
import { createFaceAnalyzer } from './face-analyzer.js';
import { buildFaceProfile, descriptorSimilarity, pickReferenceForYaw } from './face-profile.models.js';
import type { AnalysedFace, FaceAnalysis } from './faces.types.js';
import { checkPhoto } from './photo-checks.models.js';

// Real photos through the real models (see src/testing/test-faces.ts for where they come from).
// One analyser for the file: Human loads once, each photo then takes ~0.2 s on 2 cores.
const analyzer = createFaceAnalyzer();
let faces: TestFaces;
let astronaut: FaceAnalysis;
let graceHopper: FaceAnalysis;
let astronautSet: FaceAnalysis[];

function mainFace(analysis: FaceAnalysis): AnalysedFace {
  const [face] = analysis.faces;
  if (!face) throw new Error('expected a face in the photo');
  return face;
}

beforeAll(async () => {
  faces = await loadTestFaces();
  await analyzer.warmUp();
  astronaut = await analyzer.analyze(faces.astronaut);
  graceHopper = await analyzer.analyze(faces.graceHopper);
  astronautSet = [];
  for (const photo of await makePhotoSet(faces.astronaut, 15))
    astronautSet.push(await analyzer.analyze(photo));
}, 120_000);

describe('face analyser on real photos', () => {
  it('finds the one face of each portrait with its mesh, descriptor and pose', () => {
    for (const analysis of [astronaut, graceHopper]) {
      expect(analysis.faces).toHaveLength(1);
      const face = mainFace(analysis);
      expect(face.score).toBeGreaterThan(0.9);
      expect(face.mesh).toHaveLength(478);
      expect(face.descriptor).toHaveLength(1024);
      expect(Math.abs(face.yaw)).toBeLessThan(0.1);
    }
    expect(astronaut.image).toMatchObject({ width: 512, height: 512, originalWidth: 512 });
    const box = mainFace(astronaut).box;
    // Eileen Collins' face sits in the upper middle of the 512 px portrait.
    expect(box.x).toBeGreaterThan(120);
    expect(box.x + box.width).toBeLessThan(330);
    expect(box.width).toBeGreaterThan(110);
  });

  it('tells two people apart and recognises one person across varied photos', () => {
    const collins = mainFace(astronaut).descriptor;
    expect(descriptorSimilarity(collins, mainFace(graceHopper).descriptor)).toBeLessThan(0.35);
    expect(astronautSet).toHaveLength(15);
    for (const variant of astronautSet) {
      expect(descriptorSimilarity(mainFace(variant).descriptor, collins)).toBeGreaterThan(0.9);
    }
  });

  it('computes similarity exactly as Human does', () => {
    const require = createRequire(import.meta.url);
    const humanPath = path.join(path.dirname(require.resolve('@vladmandic/human')), 'human.node-wasm.js');
    const { match } = require(humanPath) as typeof HumanModule;
    const pairs = [
      [astronaut, graceHopper],
      [astronaut, astronautSet[3]],
    ] as const;
    for (const [a, b] of pairs) {
      const ours = descriptorSimilarity(mainFace(a).descriptor, mainFace(b!).descriptor);
      expect(ours).toBeCloseTo(match.similarity(mainFace(a).descriptor, mainFace(b!).descriptor), 2);
    }
  });

  it('reads the photo upright from its EXIF orientation and reports the uploaded size', async () => {
    const sharp = (await import('sharp')).default;
    // Stored sideways with "rotate 90° clockwise to view" (orientation 6), as phones do.
    const sideways = await sharp(faces.graceHopper)
      .rotate(-90)
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const analysis = await analyzer.analyze(sideways);
    expect(analysis.image).toMatchObject({
      width: 512,
      height: 600,
      originalWidth: 512,
      originalHeight: 600,
    });
    expect(analysis.faces).toHaveLength(1);
    expect(Math.abs(mainFace(analysis).roll)).toBeLessThan(0.2);
  });

  it('analyses a large photo at 1024 px on its longest side and keeps the original size', async () => {
    const sharp = (await import('sharp')).default;
    const large = await sharp(faces.graceHopper).resize({ width: 2048 }).jpeg().toBuffer();
    const analysis = await analyzer.analyze(large);
    expect(analysis.image).toMatchObject({
      width: 874,
      height: 1024,
      originalWidth: 2048,
      originalHeight: 2400,
    });
    expect(analysis.faces).toHaveLength(1);
  });
});

describe('photo checks on real photos', () => {
  const references = () => astronautSet.map((analysis) => mainFace(analysis).descriptor);

  it('accepts a good frontal portrait of the same person', () => {
    const check = checkPhoto({ analysis: astronaut, references: references() });
    expect(check).toMatchObject({ ok: true, problems: [], tips: ['pose.front'], pose: 'front' });
    expect(check.measurements?.similarity).toBeGreaterThan(0.9);
  });

  it('accepts every photo of the 15-photo set against the others', () => {
    for (const [index, analysis] of astronautSet.entries()) {
      const others = references().filter((_, i) => i !== index);
      expect(checkPhoto({ analysis, references: others })).toMatchObject({ ok: true, problems: [] });
    }
  });

  it('refuses a photo without a face', async () => {
    const check = checkPhoto({ analysis: await analyzer.analyze(faces.coffee), references: [] });
    expect(check).toMatchObject({ ok: false, problems: ['face.none'], pose: null });
  });

  it('refuses a photo with two people', async () => {
    const two = await analyzer.analyze(await composeSideBySide(faces.astronaut, faces.graceHopper));
    expect(two.faces).toHaveLength(2);
    expect(checkPhoto({ analysis: two, references: [] }).problems).toEqual(['face.multiple']);
  });

  it('refuses a face too small in the frame', async () => {
    const tiny = await analyzer.analyze(await shrinkIntoCanvas(faces.astronaut, 2048, 256));
    expect(tiny.faces).toHaveLength(1);
    expect(checkPhoto({ analysis: tiny, references: [] }).problems).toContain('face.too_small');
  });

  it('refuses a blurred photo but not the sharp original', async () => {
    const blurred = await analyzer.analyze(await blurPhoto(faces.astronaut, 3));
    expect(checkPhoto({ analysis: blurred, references: [] }).problems).toEqual(['photo.blurry']);
    expect(checkPhoto({ analysis: astronaut, references: [] }).problems).not.toContain('photo.blurry');
  });

  it('reports a blurred or shaken photo of the model’s person as blurry, never as somebody else', async () => {
    // A strong blur moves the descriptor away from the person's; a shake doubles the face.
    const blurred = await analyzer.analyze(await blurPhoto(faces.astronaut, 5));
    expect(checkPhoto({ analysis: blurred, references: references() }).problems).toEqual(['photo.blurry']);
    const shaken = await analyzer.analyze(await shakePhoto(faces.astronaut, 40));
    expect(shaken.faces.length).toBeGreaterThan(1);
    expect(checkPhoto({ analysis: shaken, references: references() }).problems).toEqual(['photo.blurry']);
  });

  it('flags a dark photo as low light, as a tip: the photo still counts', async () => {
    const dark = await analyzer.analyze(await darkenPhoto(faces.astronaut, 0.3));
    const check = checkPhoto({ analysis: dark, references: references() });
    expect(check).toMatchObject({ ok: true, problems: [], tips: ['pose.front', 'photo.low_light'] });
    expect(checkPhoto({ analysis: astronaut, references: [] }).tips).not.toContain('photo.low_light');
  });

  it('tells a face turned to the side from a frontal one', async () => {
    // The cameraman: a real semi-profile, about 45°.
    const cameraman = await analyzer.analyze(faces.cameraman);
    expect(checkPhoto({ analysis: cameraman, references: [] })).toMatchObject({ ok: true, pose: 'side' });
    expect(checkPhoto({ analysis: graceHopper, references: [] }).pose).toBe('front');
  });

  it('notes glasses on Grace Hopper and none on the astronaut', () => {
    expect(checkPhoto({ analysis: graceHopper, references: [] }).tips).toContain('face.glasses');
    expect(checkPhoto({ analysis: astronaut, references: [] }).tips).not.toContain('face.glasses');
  });

  it('refuses somebody else among the photos of one person', () => {
    const check = checkPhoto({ analysis: graceHopper, references: references() });
    expect(check.problems).toEqual(['face.different_person']);
    expect(check.measurements?.similarity).toBeLessThan(0.35);
  });
});

describe('face profile from real photos', () => {
  it('builds the identity, the best front references and the landmark statistics of 15 photos', () => {
    const profile = buildFaceProfile(astronautSet.map((analysis, i) => ({ photoId: `p${i}`, analysis })));
    expect(profile.photoCount).toBe(15);
    expect(descriptorSimilarity(profile.descriptor, mainFace(astronaut).descriptor)).toBeGreaterThan(0.95);
    expect(descriptorSimilarity(profile.descriptor, mainFace(graceHopper).descriptor)).toBeLessThan(0.35);
    expect(profile.consistency.min).toBeGreaterThan(0.9);
    expect(profile.bestByPose.front).toHaveLength(3);
    expect(profile.bestByPose.side).toEqual([]);
    expect(pickReferenceForYaw(profile, 0)?.pose).toBe('front');
    const landmarks = profile.landmarks;
    expect(landmarks?.sampleCount).toBe(15);
    expect(landmarks?.meanShape).toHaveLength(478);
    // Human faces are about 2–3 eye distances wide and 2–2.5 from the eyes to the chin.
    expect(landmarks?.faceWidthRatio).toBeGreaterThan(1.8);
    expect(landmarks?.faceWidthRatio).toBeLessThan(3.2);
    expect(landmarks?.faceHeightRatio).toBeGreaterThan(1.5);
    expect(landmarks?.faceHeightRatio).toBeLessThan(3);
    // One person, one expression: the aligned meshes agree to a few percent of the eye distance.
    const spread = landmarks?.spread ?? [];
    expect(spread.reduce((a, b) => a + b, 0) / spread.length).toBeLessThan(0.05);
  });
});
