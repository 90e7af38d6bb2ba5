import { readExifLabel } from '@mirra/imaging';
import { loadTestFaces, type TestFaces } from '@mirra/imaging/testing';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { type EngineContext, EngineError, type EngineOutput, type EngineRequest } from '../engine.types.js';
import { createLocalEngine } from './local.engine.js';

// The background, inpaint and outpaint modes through the local engine, on a real portrait.
const engine = createLocalEngine();
let faces: TestFaces;

beforeAll(async () => {
  faces = await loadTestFaces();
});

const png = (data: Buffer, width = 512, height = 512) => ({ data, contentType: 'image/png', width, height });

function request(overrides: Partial<EngineRequest>): EngineRequest {
  return {
    generationUuid: '00000000-0000-4000-8000-000000000000',
    mode: 'background',
    prompt: '',
    guidance: 7,
    seed: 1,
    style: null,
    durationSeconds: null,
    images: [png(faces.astronaut)],
    ...overrides,
  };
}

function context(): EngineContext & { progress: number[] } {
  const progress: number[] = [];
  return { progress, onProgress: (value) => void progress.push(value), signal: new AbortController().signal };
}

async function run(overrides: Partial<EngineRequest>, ctx = context()): Promise<EngineOutput> {
  const result = await engine.start(request(overrides), ctx);
  if (result.kind !== 'done') throw new Error('the local engine always finishes in start()');
  return result.output;
}

describe('local engine tools', () => {
  it('serves background, inpaint and outpaint', () => {
    for (const mode of ['background', 'inpaint', 'outpaint'] as const)
      expect(engine.supports(mode), mode).toBe(true);
  });

  it('removes the background by default: a labelled PNG with transparency, progress up to 100', async () => {
    const ctx = context();
    const output = await run({}, ctx);
    expect(output.contentType).toBe('image/png');
    const { data, info } = await sharp(output.data)
      .extractChannel(3)
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(data[2 * info.width + 2]).toBe(0);
    expect(data[115 * info.width + 225]).toBe(255);
    expect(output.notes.map((note) => note.code)).toContain('background.removed');
    const label = readExifLabel((await sharp(output.data).metadata()).exif);
    expect(label.software).toBe('Mirra local engine');
    expect(label.imageDescription).toMatch(/^Background by Mirra local engine/);
    expect(ctx.progress.at(-1)).toBe(100);
    expect(ctx.progress).toEqual([...ctx.progress].sort((a, b) => a - b));
  });

  it('puts the colour chosen behind the person', async () => {
    const output = await run({ settings: { background: 'colour', colour: '#112233' } });
    const { data } = await sharp(output.data).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([...data.subarray(0, 3)]).toEqual([0x11, 0x22, 0x33]);
  });

  it('refuses a photo with no person as bad input (no_person)', async () => {
    const error = await run({ images: [png(faces.coffee, 400, 600)] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EngineError);
    expect(error).toMatchObject({ code: 'engine.bad_input', retryable: false, reason: 'no_person' });
  });

  it('inpaints the painted square and says which words it did not draw', async () => {
    const square = { width: 48, height: 48, channels: 3 as const };
    const pasted = await sharp(faces.astronaut)
      .removeAlpha()
      .composite([{ input: { create: { ...square, background: '#20e020' } }, left: 300, top: 40 }])
      .png()
      .toBuffer();
    const mask = await sharp({ create: { width: 512, height: 512, channels: 3, background: '#000000' } })
      .composite([{ input: { create: { ...square, background: '#ffffff' } }, left: 300, top: 40 }])
      .png()
      .toBuffer();
    const output = await run({
      mode: 'inpaint',
      images: [png(pasted)],
      prompt: 'remove the square and add a moon',
      settings: { mask: png(mask) },
    });
    const { data } = await sharp(output.data).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const centre = (64 * 512 + 324) * 3;
    expect(data[centre + 1]! - Math.max(data[centre]!, data[centre + 2]!)).toBeLessThan(60);
    expect(output.notes.find((note) => note.code === 'inpaint.not_drawn')?.params.parts).toBe('add a moon');
  });

  it('refuses an inpaint without a mask as bad input (empty_mask)', async () => {
    const error = await run({ mode: 'inpaint' }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'engine.bad_input', reason: 'empty_mask' });
  });

  it('extends a square photo to exactly 16:9 with the photo in the middle', async () => {
    const output = await run({ mode: 'outpaint', aspect: '16:9' });
    expect(output.width * 9).toBe(output.height * 16);
    const { data, info } = await sharp(output.data).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const original = await sharp(faces.astronaut).removeAlpha().raw().toBuffer();
    const left = Math.floor((info.width - 512) / 2);
    const top = Math.floor((info.height - 512) / 2);
    const row = 200;
    expect(
      Buffer.compare(
        data.subarray(((row + top) * info.width + left) * 3, ((row + top) * info.width + left + 512) * 3),
        original.subarray(row * 512 * 3, (row + 1) * 512 * 3),
      ),
    ).toBe(0);
    expect(output.notes.map((note) => note.code)).toContain('outpaint.extended');
  });

  it('extends in the direction chosen', async () => {
    const output = await run({ mode: 'outpaint', settings: { extend: 'right' } });
    expect([output.width, output.height]).toEqual([768, 512]);
  });
});
