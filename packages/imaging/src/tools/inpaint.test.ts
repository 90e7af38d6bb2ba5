import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { UnusableInputError } from '../pipeline.types.js';
import { loadTestFaces, type TestFaces } from '../testing/test-faces.js';
import { inpaint, wordsNotDrawn } from './inpaint.js';

let faces: TestFaces;

beforeAll(async () => {
  faces = await loadTestFaces();
});

const PASTE = '#20e020';

/** A green square pasted on the photo and the mask that marks it (white on black). */
async function pasteSquare(photo: Buffer, box: { left: number; top: number; size: number }) {
  const { width = 0, height = 0 } = await sharp(photo).metadata();
  const square = { width: box.size, height: box.size, channels: 3 as const };
  const pasted = await sharp(photo)
    .removeAlpha()
    .composite([{ input: { create: { ...square, background: PASTE } }, left: box.left, top: box.top }])
    .png()
    .toBuffer();
  const mask = await sharp({ create: { width, height, channels: 3, background: '#000000' } })
    .composite([{ input: { create: { ...square, background: '#ffffff' } }, left: box.left, top: box.top }])
    .png()
    .toBuffer();
  return { pasted, mask, width, height };
}

const raw = (png: Buffer) => sharp(png).removeAlpha().raw().toBuffer();

/**
 * Mean absolute difference from the original inside the box, compared as 4×4 block means: the film
 * grain of a backdrop is texture any fill can only imitate, never reproduce pixel for pixel (a flat
 * fill, the grain's average, would win at full resolution while looking like a sticker).
 */
function errorInBox(
  pixels: Buffer,
  original: Buffer,
  width: number,
  box: { left: number; top: number; size: number },
) {
  let sum = 0;
  let count = 0;
  for (let by = box.top; by + 4 <= box.top + box.size; by += 4) {
    for (let bx = box.left; bx + 4 <= box.left + box.size; bx += 4) {
      for (let c = 0; c < 3; c++) {
        let mine = 0;
        let theirs = 0;
        for (let y = by; y < by + 4; y++) {
          for (let x = bx; x < bx + 4; x++) {
            mine += pixels[(y * width + x) * 3 + c]!;
            theirs += original[(y * width + x) * 3 + c]!;
          }
        }
        sum += Math.abs(mine - theirs) / 16;
        count++;
      }
    }
  }
  return sum / count;
}

/** The fills a removal must beat: the ring's mean colour, and the surroundings blurred into the hole. */
async function naiveFills(
  pasted: Buffer,
  width: number,
  height: number,
  box: { left: number; top: number; size: number },
) {
  const pixels = await raw(pasted);
  const flat = Buffer.from(pixels);
  const inBox = (x: number, y: number) =>
    x >= box.left && x < box.left + box.size && y >= box.top && y < box.top + box.size;
  const ring = [0, 0, 0];
  let count = 0;
  for (let y = box.top - 4; y < box.top + box.size + 4; y++) {
    for (let x = box.left - 4; x < box.left + box.size + 4; x++) {
      if (inBox(x, y) || x < 0 || y < 0 || x >= width || y >= height) continue;
      for (let c = 0; c < 3; c++) ring[c]! += pixels[(y * width + x) * 3 + c]!;
      count++;
    }
  }
  for (let y = box.top; y < box.top + box.size; y++) {
    for (let x = box.left; x < box.left + box.size; x++) {
      for (let c = 0; c < 3; c++) flat[(y * width + x) * 3 + c] = Math.round(ring[c]! / count);
    }
  }
  // Blurred: the flat fill's picture blurred, with the blur kept only inside the box.
  const soft = await sharp(flat, { raw: { width, height, channels: 3 } })
    .blur(box.size / 3)
    .raw()
    .toBuffer();
  const blurred = Buffer.from(pixels);
  for (let y = box.top; y < box.top + box.size; y++) {
    for (let x = box.left; x < box.left + box.size; x++) {
      for (let c = 0; c < 3; c++) blurred[(y * width + x) * 3 + c] = soft[(y * width + x) * 3 + c]!;
    }
  }
  return { flat, blurred };
}

describe('inpaint', () => {
  const cases = [
    // The mottled studio backdrop right of the astronaut's hair: texture and shading that a flat or
    // blurred fill cannot continue.
    { name: 'astronaut' as const, box: { left: 300, top: 40, size: 48 }, smooth: false },
    // The nearly even blue backdrop right of Grace Hopper's cap: a smooth blur is as good as any fill
    // there, so the fill must only be as invisible (under 4 levels off at the block scale).
    { name: 'graceHopper' as const, box: { left: 410, top: 100, size: 44 }, smooth: true },
  ];
  for (const { name, box, smooth } of cases) {
    it(`removes an object pasted on the ${name} portrait's background (${smooth ? 'smooth' : 'textured'})`, async () => {
      const original = await raw(faces[name]);
      const { pasted, mask, width, height } = await pasteSquare(faces[name], box);
      const result = await inpaint(pasted, mask, { seed: 7 });
      expect([result.width, result.height]).toEqual([width, height]);
      const filled = await raw(result.data);
      const { flat, blurred } = await naiveFills(pasted, width, height, box);
      const mine = errorInBox(filled, original, width, box);
      if (smooth) {
        expect(mine).toBeLessThan(4);
      } else {
        expect(mine).toBeLessThan(errorInBox(flat, original, width, box));
        expect(mine).toBeLessThan(errorInBox(blurred, original, width, box));
      }
      // Nothing of the pasted green is left.
      for (let y = box.top; y < box.top + box.size; y++) {
        for (let x = box.left; x < box.left + box.size; x++) {
          const p = (y * width + x) * 3;
          const greenish = filled[p + 1]! - Math.max(filled[p]!, filled[p + 2]!);
          expect(greenish, `${x},${y}`).toBeLessThan(60);
        }
      }
      // Outside the (slightly grown) mask every pixel is the photo's own.
      expect(filled.subarray(0, width * 3 * 20)).toEqual(
        Buffer.from(await raw(pasted)).subarray(0, width * 3 * 20),
      );
    });
  }

  it('continues texture (the folds of a flag) into the hole instead of smoothing it over', async () => {
    // Pixel error favours a blur on texture (it is the average of every possible fold), so here
    // the measure is the local contrast of the filled square against the original's.
    const box = { left: 40, top: 120, size: 40 };
    const original = await raw(faces.graceHopper);
    const { pasted, mask, width, height } = await pasteSquare(faces.graceHopper, box);
    const filled = await raw((await inpaint(pasted, mask, { seed: 7 })).data);
    const { blurred } = await naiveFills(pasted, width, height, box);
    const contrast = (pixels: Buffer) => {
      let sum = 0;
      for (let y = box.top + 2; y < box.top + box.size - 2; y++) {
        for (let x = box.left + 2; x < box.left + box.size - 2; x++) {
          const p = (y * width + x) * 3;
          for (let c = 0; c < 3; c++) {
            sum +=
              Math.abs(pixels[p + c]! - pixels[p + 3 + c]!) +
              Math.abs(pixels[p + c]! - pixels[p + width * 3 + c]!);
          }
        }
      }
      return sum;
    };
    const own = contrast(original);
    expect(contrast(filled)).toBeGreaterThan(own * 0.6);
    expect(contrast(filled)).toBeLessThan(own * 1.6);
    expect(contrast(blurred)).toBeLessThan(own * 0.3);
  });

  it('takes a mask of another size (scaled to the photo) and says what it did not draw', async () => {
    const box = { left: 300, top: 40, size: 48 };
    const { pasted } = await pasteSquare(faces.astronaut, box);
    // The same mask at half size, drawn as white strokes on a transparent layer.
    const halfMask = await sharp({
      create: { width: 256, height: 256, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .composite([
        {
          input: { create: { width: 24, height: 24, channels: 4, background: '#ffffffff' } },
          left: 150,
          top: 20,
        },
      ])
      .png()
      .toBuffer();
    const result = await inpaint(pasted, halfMask, { seed: 7, prompt: 'remove the box and add a cat' });
    const filled = await raw(result.data);
    const centre = ((box.top + 24) * 512 + box.left + 24) * 3;
    expect(filled[centre + 1]! - Math.max(filled[centre]!, filled[centre + 2]!)).toBeLessThan(60);
    const notDrawn = result.notes.find((note) => note.code === 'inpaint.not_drawn');
    expect(notDrawn?.params.parts).toBe('add a cat');
  });

  it('refuses an empty mask', async () => {
    const empty = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#000000' } })
      .png()
      .toBuffer();
    const error = await inpaint(faces.astronaut, empty, { seed: 1 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnusableInputError);
    expect((error as UnusableInputError).reason).toBe('empty_mask');
  });
});

describe('wordsNotDrawn', () => {
  it('keeps removals (in the six languages) and returns every other part as written', () => {
    expect(wordsNotDrawn('')).toEqual([]);
    expect(wordsNotDrawn('remove the cup')).toEqual([]);
    expect(wordsNotDrawn('Please erase the wires, clean up the wall')).toEqual([]);
    expect(wordsNotDrawn('убери провода')).toEqual([]);
    expect(wordsNotDrawn('entferne die Tasse')).toEqual([]);
    expect(wordsNotDrawn('прибери сміття')).toEqual([]);
    expect(wordsNotDrawn('remove the cup and add a hat')).toEqual(['add a hat']);
    expect(wordsNotDrawn('make her smile; a red balloon')).toEqual(['make her smile', 'a red balloon']);
  });
});
