import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { rawFrom, type Plane, type RawImage } from '../raster/raster.js';
import { parseEditInstruction } from './editing.models.js';
import { applyEdits, type EditTools } from './editing.pipeline.js';

/**
 * A landscape with a person: a blue sky with soft clouds over the top 45 %, textured green land
 * below, and a person-shaped block in the middle (the fake segmenter below reports exactly it).
 */
const W = 480;
const H = 360;
const PERSON = { left: 180, top: 110, right: 300, bottom: 360 };
const SKY_ROWS = 150;

async function makeLandscape(): Promise<RawImage> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">
    <defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#3b78d8"/><stop offset="1" stop-color="#b9dcf5"/></linearGradient></defs>
    <rect width="${W}" height="${H}" fill="url(#s)"/>
    <ellipse cx="110" cy="60" rx="70" ry="18" fill="#eef4fb" opacity="0.8"/>
    <rect y="${SKY_ROWS + 12}" width="${W}" height="${H}" fill="#3f7d38"/>
    <rect x="${PERSON.left}" y="${PERSON.top}" width="${PERSON.right - PERSON.left}" height="${H}" fill="#b8324a"/>
    <ellipse cx="240" cy="150" rx="40" ry="48" fill="#e8b898"/>
  </svg>`;
  const image = await rawFrom(sharp(Buffer.from(svg)).flatten().removeAlpha());
  // Grass and fabric texture (a fixed LCG), so blur and fog have detail to take away.
  let state = 99;
  for (let y = SKY_ROWS + 12; y < H; y++) {
    for (let x = 0; x < W; x++) {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      const noise = ((state >>> 24) % 61) - 30;
      const p = (y * W + x) * 3;
      for (let c = 0; c < 3; c++) image.data[p + c] = Math.max(0, Math.min(255, image.data[p + c]! + noise));
    }
  }
  return image;
}

/** The selfie segmentation's answer for this picture: the person block, at 256×256 like the model. */
const personSegmenter: EditTools['segmentPerson'] = async (photo) => {
  const side = 256;
  const data = new Uint8Array(side * side);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const px = (x / side) * photo.width;
      const py = (y / side) * photo.height;
      const inside = px >= PERSON.left && px < PERSON.right && py >= PERSON.top && py < PERSON.bottom;
      data[y * side + x] = inside ? 255 : 0;
    }
  }
  return { data, width: side, height: side } satisfies Plane;
};

let photo: RawImage;
beforeAll(async () => {
  photo = await makeLandscape();
});

async function edit(instruction: string, tools: EditTools = { segmentPerson: personSegmenter }) {
  const parsed = parseEditInstruction(instruction);
  expect(parsed.ignored).toEqual([]);
  return applyEdits(photo, parsed.operations, async () => {}, { seed: 5, ...tools });
}

type Region = { left: number; top: number; right: number; bottom: number };
const SKY: Region = { left: 0, top: 0, right: W, bottom: SKY_ROWS - 20 };
const SKY_BESIDE_PERSON: Region = { left: 0, top: 0, right: PERSON.left - 20, bottom: SKY_ROWS - 20 };
const LAND: Region = { left: 0, top: SKY_ROWS + 30, right: PERSON.left - 20, bottom: H };
const PERSON_INSIDE: Region = { left: PERSON.left + 15, top: 220, right: PERSON.right - 15, bottom: H - 10 };

function stats(image: RawImage, region: Region) {
  let r = 0;
  let g = 0;
  let b = 0;
  let l2 = 0;
  let detail = 0;
  let n = 0;
  for (let y = region.top; y < region.bottom; y++) {
    for (let x = region.left; x < region.right - 1; x++) {
      const p = (y * image.width + x) * 3;
      const lum = 0.299 * image.data[p]! + 0.587 * image.data[p + 1]! + 0.114 * image.data[p + 2]!;
      const next = 0.299 * image.data[p + 3]! + 0.587 * image.data[p + 4]! + 0.114 * image.data[p + 5]!;
      r += image.data[p]!;
      g += image.data[p + 1]!;
      b += image.data[p + 2]!;
      l2 += lum * lum;
      detail += Math.abs(next - lum);
      n++;
    }
  }
  const mean = (0.299 * r + 0.587 * g + 0.114 * b) / n;
  return {
    r: r / n,
    g: g / n,
    b: b / n,
    luminance: mean,
    contrast: Math.sqrt(Math.max(0, l2 / n - mean * mean)),
    detail: detail / n,
  };
}

/** Share of the region's pixels clearly brighter than their 5×5 neighbourhood: drops, streaks, flakes. */
function speckles(image: RawImage, region: Region): number {
  const lum = (x: number, y: number) => {
    const p = (y * image.width + x) * 3;
    return 0.299 * image.data[p]! + 0.587 * image.data[p + 1]! + 0.114 * image.data[p + 2]!;
  };
  let bright = 0;
  let n = 0;
  for (let y = region.top + 2; y < region.bottom - 2; y++) {
    for (let x = region.left + 2; x < region.right - 2; x++) {
      let sum = 0;
      for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++) sum += lum(x + dx, y + dy);
      if (lum(x, y) - sum / 25 > 12) bright++;
      n++;
    }
  }
  return bright / n;
}

describe('scene edits change the right region, measurably', () => {
  it('"make the sky a dramatic sunset": the sky turns warm (red over blue), the land keeps most of its colour', async () => {
    const { image, notes } = await edit('Make the sky a dramatic sunset');
    const before = stats(photo, SKY);
    const after = stats(image, SKY);
    expect(before.b - before.r).toBeGreaterThan(60);
    expect(after.r - after.b).toBeGreaterThan(30);
    const landBefore = stats(photo, LAND);
    const landAfter = stats(image, LAND);
    expect(Math.abs(landAfter.g - landBefore.g)).toBeLessThan(30);
    expect(notes.map((note) => note.code)).toEqual(['edit.sky_sunset', 'edit.light_sunset']);
    expect(Number(notes[0]!.params.percent)).toBeGreaterThan(20);
  });

  it('"make it night": the sky goes dark and the whole picture darker and bluer', async () => {
    const { image } = await edit('make it night');
    expect(stats(image, SKY).luminance).toBeLessThan(stats(photo, SKY).luminance * 0.4);
    const land = stats(image, LAND);
    expect(land.luminance).toBeLessThan(stats(photo, LAND).luminance * 0.6);
    expect(land.b).toBeGreaterThan(land.r);
  });

  it('"add soft fog": contrast drops and the picture gets paler, less over the person than behind', async () => {
    const { image } = await edit('add soft fog');
    const land = stats(image, LAND);
    expect(land.contrast).toBeLessThan(stats(photo, LAND).contrast * 0.75);
    expect(land.luminance).toBeGreaterThan(stats(photo, LAND).luminance + 20);
    const personChange = stats(image, PERSON_INSIDE).luminance - stats(photo, PERSON_INSIDE).luminance;
    const landChange = land.luminance - stats(photo, LAND).luminance;
    expect(personChange).toBeLessThan(landChange);
  });

  it('"thick fog" is thicker than "soft fog"', async () => {
    const soft = stats((await edit('soft fog')).image, LAND).contrast;
    const thick = stats((await edit('thick fog')).image, LAND).contrast;
    expect(thick).toBeLessThan(soft);
  });

  it('"blur the background": the background loses detail, the person keeps it', async () => {
    const { image, notes } = await edit('blur the background');
    expect(stats(image, LAND).detail).toBeLessThan(stats(photo, LAND).detail * 0.5);
    expect(stats(image, PERSON_INSIDE).detail).toBeGreaterThan(stats(photo, PERSON_INSIDE).detail * 0.9);
    expect(notes.map((note) => note.code)).toEqual(['edit.blur_background_person']);
  });

  it('"replace the background with a beach": the background changes, the person stays', async () => {
    const { image, notes } = await edit('replace the background with a sunny beach');
    const landBefore = stats(photo, LAND);
    const landAfter = stats(image, LAND);
    const moved =
      Math.abs(landAfter.r - landBefore.r) +
      Math.abs(landAfter.g - landBefore.g) +
      Math.abs(landAfter.b - landBefore.b);
    expect(moved).toBeGreaterThan(40);
    const personBefore = stats(photo, PERSON_INSIDE);
    const personAfter = stats(image, PERSON_INSIDE);
    expect(Math.abs(personAfter.r - personBefore.r)).toBeLessThan(30);
    expect(notes).toMatchObject([{ code: 'edit.background_replaced', params: { scene: 'a sunny beach' } }]);
  });

  it('without a person it says the background was not replaced, and leaves it', async () => {
    const { image, notes } = await edit('make it a sunny beach', {
      segmentPerson: async () => ({ data: new Uint8Array(256 * 256), width: 256, height: 256 }),
    });
    expect(image.data.equals(photo.data)).toBe(true);
    expect(notes.map((note) => note.code)).toEqual(['edit.background_no_person']);
  });

  it('"add rain" and "make it snowy" draw streaks and flakes over the sky and cool the light', async () => {
    for (const instruction of ['add rain', 'make it snowy']) {
      const { image } = await edit(instruction);
      expect(speckles(image, SKY_BESIDE_PERSON), instruction).toBeGreaterThan(
        speckles(photo, SKY_BESIDE_PERSON) + 0.01,
      );
      const land = stats(image, LAND);
      expect(land.b - land.r, instruction).toBeGreaterThan(stats(photo, LAND).b - stats(photo, LAND).r);
    }
  });

  it('"vintage film look": faded blacks, warmer, less colour', async () => {
    const { image } = await edit('vintage film look');
    const before = stats(photo, LAND);
    const after = stats(image, LAND);
    expect(after.r - after.b).toBeGreaterThan(before.r - before.b);
    expect(after.g - (after.r + after.b) / 2).toBeLessThan(before.g - (before.r + before.b) / 2);
  });

  it('a sky wish on a photo without open sky says so and changes the light instead', async () => {
    const dark: RawImage = { ...photo, data: Buffer.alloc(photo.data.length, 40) };
    const parsed = parseEditInstruction('make the sky a sunset');
    const { image, notes } = await applyEdits(dark, parsed.operations, async () => {}, { seed: 1 });
    expect(notes.map((note) => note.code)).toEqual(['edit.no_sky', 'edit.light_sunset']);
    expect(image.data[0]!).toBeGreaterThan(image.data[2]!);
  });

  it('is deterministic for a seed', async () => {
    const a = await edit('stormy sky and add rain');
    const b = await edit('stormy sky and add rain');
    expect(a.image.data.equals(b.image.data)).toBe(true);
  });
});
