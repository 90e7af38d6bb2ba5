import { beforeAll, describe, expect, it } from 'vitest';
import { loadTestFaces, makePhotoSet } from '../testing/test-faces.js';
import { createFaceAnalyzer } from '../faces/face-analyzer.js';
import { buildFaceProfile } from '../faces/face-profile.models.js';
import { UnusableInputError, type EngineFaceModel } from '../pipeline.types.js';
import { facePhotoFromPrompt } from './face-photo.pipeline.js';
import type { RawImage } from '../raster/raster.js';
import { planScene } from '../scene/scene.models.js';
import { renderScene } from '../scene/scene.render.js';

// A face photo from a prompt should look like a portrait photo: the scene behind out of focus, the
// figure lit from one side, the face on it. A model built from the astronaut's photos.
const analyzer = createFaceAnalyzer();
let faceModel: EngineFaceModel;

beforeAll(async () => {
  const faces = await loadTestFaces();
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

const luminance = (image: RawImage, x: number, y: number) => {
  const p = (y * image.width + x) * 3;
  return 0.299 * image.data[p]! + 0.587 * image.data[p + 1]! + 0.114 * image.data[p + 2]!;
};

/** Mean absolute difference between pixels four apart across rows [from, to): detail, not grain. */
function detail(image: RawImage, from: number, to: number): number {
  let sum = 0;
  let count = 0;
  for (let y = Math.round(image.height * from); y < Math.round(image.height * to); y++) {
    for (let x = 0; x + 4 < image.width; x += 2) {
      sum += Math.abs(luminance(image, x + 4, y) - luminance(image, x, y));
      count++;
    }
  }
  return sum / count;
}

describe('face photo from a prompt', () => {
  it(
    'throws the scene behind out of focus and lights the figure from one side',
    { timeout: 60_000 },
    async () => {
      const prompt = 'a city at night';
      const seed = 7;
      const outcome = await facePhotoFromPrompt(prompt, seed, faceModel, async () => {});
      const { image } = outcome;
      const plan = planScene(prompt, seed);
      const scene = await renderScene({
        ...plan,
        shape: 'portrait',
        width: image.width,
        height: image.height,
      });
      // Above the head: the same scene, far softer.
      expect(detail(image, 0, 0.12)).toBeLessThan(detail(scene, 0, 0.12) * 0.6);
      // Across the shoulders near the bottom, one side is lit and the other in shade.
      const row = Math.round(image.height * 0.93);
      const band = (from: number, to: number) => {
        let sum = 0;
        const xs = [];
        for (let x = Math.round(image.width * from); x < Math.round(image.width * to); x++) xs.push(x);
        for (const x of xs) sum += luminance(image, x, row);
        return sum / xs.length;
      };
      const left = band(0.3, 0.4);
      const right = band(0.6, 0.7);
      expect(Math.abs(left - right), `left ${left}, right ${right}`).toBeGreaterThan(6);
      expect(outcome.notes[0]).toMatchObject({
        code: 'face_photo.method',
        text: expect.stringMatching(/composite.*out of focus/),
      });
      // The face is there, where a portrait has it.
      const found = await analyzer.analyze(
        await (
          await import('sharp')
        )
          .default(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
          .png()
          .toBuffer(),
      );
      expect(found.faces).toHaveLength(1);
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
