import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { UnusableInputError } from '../pipeline.types.js';
import { loadTestFaces, shrinkIntoCanvas, type TestFaces } from '../testing/test-faces.js';
import { createPersonSegmenter } from '../video/person-segmentation.js';
import { cutOutPerson, replaceBackground } from './background.js';

/*
 * The reference masks in src/testing/ (128 px wide, white = person) were made once, independently
 * of the tool's refinement: the selfie model run on the whole photo, its mirror and four
 * overlapping 70% crops (a closer look at the outline), averaged at full size, snapped to the
 * photo's edges by a fine guided filter, thresholded at one half, scaled to 128 px; then checked by
 * eye as a red overlay on the photo and corrected by hand where the model was wrong (the
 * astronaut's flag stripes left of her sleeve and the grey chair back between her shoulder and
 * the helmet are background).
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const REFERENCES = {
  astronaut: path.join(here, '..', 'testing', 'person-mask-astronaut.png'),
  graceHopper: path.join(here, '..', 'testing', 'person-mask-grace-hopper.png'),
} as const;

/** A point in the middle of each face (the photos' own layout: nose bridge, in 512 px wide photos). */
const FACE_CENTRES = { astronaut: { x: 225, y: 115 }, graceHopper: { x: 258, y: 230 } } as const;

const segmenter = createPersonSegmenter();
let faces: TestFaces;

beforeAll(async () => {
  faces = await loadTestFaces();
});

async function alphaOf(png: Buffer) {
  return sharp(png).extractChannel(3).raw().toBuffer({ resolveWithObject: true });
}

describe('cutOutPerson', () => {
  for (const name of ['astronaut', 'graceHopper'] as const) {
    it(`agrees with the reference person mask of the ${name} portrait (IoU ≥ 0.9)`, async () => {
      const reference = await sharp(await readFile(REFERENCES[name]))
        .toColourspace('b-w')
        .raw()
        .toBuffer({ resolveWithObject: true });
      const result = await cutOutPerson(faces[name], { segmenter });
      const alpha = await sharp(result.data)
        .extractChannel(3)
        .resize(reference.info.width, reference.info.height, { fit: 'fill' })
        .toColourspace('b-w')
        .raw()
        .toBuffer();
      let both = 0;
      let either = 0;
      for (let i = 0; i < alpha.length; i++) {
        const mine = alpha[i]! > 127;
        const theirs = reference.data[i]! > 127;
        if (mine && theirs) both++;
        if (mine || theirs) either++;
      }
      expect(both / either).toBeGreaterThanOrEqual(0.9);
    });
  }

  it('makes a PNG with real transparency: alpha 0 in the corners, 255 on the face', async () => {
    for (const name of ['astronaut', 'graceHopper'] as const) {
      const result = await cutOutPerson(faces[name], { segmenter });
      expect(result.contentType).toBe('image/png');
      const { data, info } = await alphaOf(result.data);
      const at = (x: number, y: number) => data[y * info.width + x]!;
      // The top corners are background in both portraits (their bottoms are the person's body).
      for (const [x, y] of [
        [2, 2],
        [info.width - 3, 2],
      ] as const) {
        expect(at(x, y), `${name} corner ${x},${y}`).toBe(0);
      }
      const face = FACE_CENTRES[name];
      for (let dy = -20; dy <= 20; dy += 10) {
        for (let dx = -20; dx <= 20; dx += 10) expect(at(face.x + dx, face.y + dy), name).toBe(255);
      }
      expect(result.notes.length).toBeGreaterThan(0);
    }
  });

  it('still finds a small person in a large frame', async () => {
    const small = await shrinkIntoCanvas(faces.graceHopper, 1024, 240);
    const result = await cutOutPerson(small, { segmenter });
    const { data, info } = await alphaOf(result.data);
    expect(data[512 * info.width + 512]).toBe(255);
    expect(data[20 * info.width + 20]).toBe(0);
  });

  it('refuses a photo with no person as no_person', async () => {
    const error = await cutOutPerson(faces.coffee, { segmenter }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnusableInputError);
    expect((error as UnusableInputError).reason).toBe('no_person');
  });
});

describe('replaceBackground', () => {
  it('puts a colour, a blurred copy or a drawn scene behind the unchanged person', async () => {
    const photo = faces.astronaut;
    const original = await sharp(photo).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const { width } = original.info;
    const face = FACE_CENTRES.astronaut;
    const faceDifference = (pixels: Buffer) => {
      let sum = 0;
      let count = 0;
      for (let y = face.y - 20; y <= face.y + 20; y++) {
        for (let x = face.x - 20; x <= face.x + 20; x++) {
          for (let c = 0; c < 3; c++)
            sum += Math.abs(pixels[(y * width + x) * 3 + c]! - original.data[(y * width + x) * 3 + c]!);
          count += 3;
        }
      }
      return sum / count;
    };
    const colour = await replaceBackground(photo, { kind: 'colour', colour: '#2f6fd0' }, { segmenter });
    const colourPixels = await sharp(colour.data).removeAlpha().raw().toBuffer();
    expect([...colourPixels.subarray(0, 3)]).toEqual([0x2f, 0x6f, 0xd0]);
    expect(faceDifference(colourPixels)).toBeLessThan(2);

    const blurred = await replaceBackground(photo, { kind: 'blur' }, { segmenter });
    const blurPixels = await sharp(blurred.data).removeAlpha().raw().toBuffer();
    expect(faceDifference(blurPixels)).toBeLessThan(2);
    // The background's fine detail (the flag's star field, top left) is gone: less local contrast.
    const detail = (pixels: Buffer) => {
      let sum = 0;
      for (let y = 10; y < 120; y++) {
        for (let x = 10; x < 80; x++)
          sum += Math.abs(pixels[(y * width + x) * 3]! - pixels[(y * width + x + 1) * 3]!);
      }
      return sum;
    };
    expect(detail(blurPixels)).toBeLessThan(detail(original.data) * 0.5);

    const scene = await replaceBackground(
      photo,
      { kind: 'scene', prompt: 'a beach at sunset', seed: 3 },
      { segmenter },
    );
    const scenePixels = await sharp(scene.data).removeAlpha().raw().toBuffer();
    // Light matching moves the person's colours a little towards the scene's, no more.
    expect(faceDifference(scenePixels)).toBeLessThan(30);
    expect(scene.notes.map((note) => note.code)).toContain('edit.background_replaced');
    expect([scene.width, scene.height]).toEqual([original.info.width, original.info.height]);
  });
});
