import type { TStyle } from '@mirra/contracts';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { createFaceAnalyzer } from '../faces/face-analyzer.js';
import { decodePhoto, encodePng, type RawImage } from '../raster/raster.js';
import { loadTestFaces, type TestFaces } from '../testing/test-faces.js';
import { applyStyle } from './styling.pipeline.js';
import type { StyleFace } from './styling.faces.js';

/*
 * Cartoon, toy figure and oil styles are sized for the whole picture; a face keeps its eyes, nose
 * and mouth when it is styled again at its own scale. Measured as face detail: how well the edges
 * inside the face box (Sobel magnitude of the luminance) still follow the photo's own edges
 * (Pearson correlation), with and without the faces given.
 */
const analyzer = createFaceAnalyzer();
let faces: TestFaces;

beforeAll(async () => {
  faces = await loadTestFaces();
}, 60_000);

function edges(image: RawImage, box: StyleFace): number[] {
  const lum = (x: number, y: number) => {
    const p = (y * image.width + x) * 3;
    return 0.299 * image.data[p]! + 0.587 * image.data[p + 1]! + 0.114 * image.data[p + 2]!;
  };
  const values: number[] = [];
  for (let y = Math.max(1, box.y); y < Math.min(image.height - 1, box.y + box.height); y++) {
    for (let x = Math.max(1, box.x); x < Math.min(image.width - 1, box.x + box.width); x++) {
      const gx = lum(x + 1, y) - lum(x - 1, y);
      const gy = lum(x, y + 1) - lum(x, y - 1);
      values.push(Math.hypot(gx, gy));
    }
  }
  return values;
}

function correlation(a: number[], b: number[]): number {
  const mean = (v: number[]) => v.reduce((s, x) => s + x, 0) / v.length;
  const ma = mean(a);
  const mb = mean(b);
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < a.length; i++) {
    num += (a[i]! - ma) * (b[i]! - mb);
    da += (a[i]! - ma) ** 2;
    db += (b[i]! - mb) ** 2;
  }
  return num / Math.sqrt(da * db);
}

describe('styling keeps faces legible', () => {
  it.each(['cartoon', 'toy', 'oil'] as const)(
    '%s: the face keeps more of its detail, and the analyser finds it at least as well',
    { timeout: 60_000 },
    async (style: TStyle) => {
      const photo = await decodePhoto(faces.astronaut, 900);
      const found = await analyzer.analyze(await encodePng(photo).toBuffer());
      const scale = photo.width / found.image.width;
      const box = found.faces[0]!.box;
      const face: StyleFace = {
        x: Math.round(box.x * scale),
        y: Math.round(box.y * scale),
        width: Math.round(box.width * scale),
        height: Math.round(box.height * scale),
      };
      const before = await applyStyle(photo, style, 3);
      const after = await applyStyle(photo, style, 3, async () => {}, [face]);
      expect(after.facesKept).toBe(1);
      const original = edges(photo, face);
      const detailBefore = correlation(original, edges(before.image, face));
      const detailAfter = correlation(original, edges(after.image, face));
      expect(detailAfter).toBeGreaterThan(detailBefore + 0.05);
      // The face analyser finds at least the faces it found in the picture styled as before.
      const foundAfter = await analyzer.analyze(await encodePng(after.image).toBuffer());
      const foundBefore = await analyzer.analyze(await encodePng(before.image).toBuffer());
      expect(foundAfter.faces.length).toBeGreaterThanOrEqual(foundBefore.faces.length);
    },
  );

  it('leaves the styles that keep faces already (watercolour, pencil, pop art) as they were', async () => {
    const photo = await decodePhoto(await sharp(faces.astronaut).resize({ width: 256 }).toBuffer(), 256);
    const face: StyleFace = { x: 60, y: 30, width: 90, height: 110 };
    const plain = await applyStyle(photo, 'pencil', 3);
    const withFace = await applyStyle(photo, 'pencil', 3, async () => {}, [face]);
    expect(withFace.image.data.equals(plain.image.data)).toBe(true);
  });
});
