import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadTestFaces, makePhotoSet } from '../testing/test-faces.js';
import { createFaceAnalyzer } from '../faces/face-analyzer.js';
import { buildFaceProfile } from '../faces/face-profile.models.js';
import { UnusableInputError, type EngineFaceModel } from '../pipeline.types.js';
import { facePhotoFromPrompt, personAlpha } from './face-photo.pipeline.js';
import { decodeRgb } from '../faces/index.js';
import { createPersonSegmenter } from '../video/person-segmentation.js';
import type { TestFaces } from '../testing/test-faces.js';

// A face photo from a prompt is the person's real photo, cut out and set into the described scene.
// A model built from the astronaut's photos.
const analyzer = createFaceAnalyzer();
const segmenter = createPersonSegmenter();
let faceModel: EngineFaceModel;
let faces: TestFaces;

beforeAll(async () => {
  faces = await loadTestFaces();
  const photos = new Map<string, Buffer>();
  const analysed = [];
  for (const [index, photo] of (await makePhotoSet(faces.astronaut, 6)).entries()) {
    photos.set(`p${index}`, photo);
    analysed.push({ photoId: `p${index}`, analysis: await analyzer.analyze(photo) });
  }
  faceModel = {
    uuid: 'test',
    profile: buildFaceProfile(analysed),
    loadReferencePhoto: async (photoId) => photos.get(photoId)!,
  };
}, 120_000);

const here = path.dirname(fileURLToPath(import.meta.url));
/** Reference person masks (white = person, made independently of this pipeline and checked by eye). */
const REFERENCE_MASKS = {
  astronaut: path.join(here, '..', 'testing', 'person-mask-astronaut.png'),
  graceHopper: path.join(here, '..', 'testing', 'person-mask-grace-hopper.png'),
} as const;

/**
 * How the cut-out's alpha agrees with a reference mask at the mask's size: IoU over the whole
 * picture, and agreement in the band of pixels within 3 px of the reference outline (where a
 * cut-out is clean or ragged).
 */
async function agreement(name: keyof typeof REFERENCE_MASKS, photo: Buffer) {
  const reference = await sharp(await readFile(REFERENCE_MASKS[name]))
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height } = reference.info;
  const rgb = await decodeRgb(photo, { maxSide: 512 });
  const alpha = await personAlpha(rgb, segmenter);
  const small = await sharp(Buffer.from(alpha.map((a) => Math.round(a * 255))), {
    raw: { width: rgb.width, height: rgb.height, channels: 1 },
  })
    .resize(width, height, { fit: 'fill' })
    .toColourspace('b-w')
    .raw()
    .toBuffer();
  const theirs = (x: number, y: number) => reference.data[y * width + x]! > 127;
  let both = 0;
  let either = 0;
  let band = 0;
  let bandAgree = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const mine = small[y * width + x]! > 127;
      const ref = theirs(x, y);
      if (mine && ref) both++;
      if (mine || ref) either++;
      let nearEdge = false;
      for (let dy = -3; dy <= 3 && !nearEdge; dy++) {
        for (let dx = -3; dx <= 3 && !nearEdge; dx++) {
          const nx = Math.min(width - 1, Math.max(0, x + dx));
          const ny = Math.min(height - 1, Math.max(0, y + dy));
          if (theirs(nx, ny) !== ref) nearEdge = true;
        }
      }
      if (nearEdge) {
        band++;
        if (mine === ref) bandAgree++;
      }
    }
  }
  return { iou: both / either, edge: bandAgree / band };
}

describe('face photo from a prompt: the real person in the described scene', () => {
  it.each(['astronaut', 'graceHopper'] as const)(
    'cuts the %s portrait out cleanly (against its reference mask)',
    async (name) => {
      const { iou, edge } = await agreement(name, faces[name]);
      expect(iou).toBeGreaterThanOrEqual(0.9);
      // At the outline, where a ragged or haloed cut shows, at least 80 % of pixels agree.
      expect(edge).toBeGreaterThanOrEqual(0.8);
    },
  );

  it(
    "places the person at a portrait's scale, lists the words about them it cannot show, and draws no body",
    { timeout: 60_000 },
    async () => {
      const prompt = 'me on the beach at sunset with a dog, wearing a red dress';
      const outcome = await facePhotoFromPrompt(prompt, 7, faceModel, async () => {}, segmenter);
      const { image, face } = outcome;
      // A head-and-shoulders portrait: the face a tenth to a quarter of the picture's height,
      // its centre in the upper two thirds.
      expect(face.height / image.height).toBeGreaterThanOrEqual(0.1);
      expect(face.height / image.height).toBeLessThanOrEqual(0.25);
      expect((face.y + face.height / 2) / image.height).toBeLessThan(0.66);
      // The face there is a real face (the analyser finds it where the pipeline says it put it).
      const png = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
        .png()
        .toBuffer();
      const found = await analyzer.analyze(png);
      expect(found.faces).toHaveLength(1);
      const box = found.faces[0]!.box;
      const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
      expect(Math.abs(centre.x - (face.x + face.width / 2))).toBeLessThan(face.width / 2);
      expect(Math.abs(centre.y - (face.y + face.height / 2))).toBeLessThan(face.height / 2);
      const codes = outcome.notes.map((note) => note.code);
      expect(codes).toContain('face_photo.cut_out');
      expect(codes).not.toContain('face_photo.method');
      expect(outcome.notes.find((note) => note.code === 'scene.subjects')?.params.subjects).toMatch(/dog/);
      expect(outcome.notes.find((note) => note.code === 'scene.not_drawn')?.params.words).toMatch(
        /wearing.*dress/,
      );
    },
  );

  it('refuses a model with no usable reference photos as unusable input, with its reason', async () => {
    const empty: EngineFaceModel = { ...faceModel, profile: { ...faceModel.profile, references: [] } };
    const error = await facePhotoFromPrompt('a city at night', 7, empty, async () => {}).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(UnusableInputError);
    expect(error).toMatchObject({ reason: 'no_usable_references' });
  });
});
