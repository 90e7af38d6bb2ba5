import { readExifLabel } from '@mirra/imaging';
import { ageLikeOldPrint, loadTestFaces, type TestFaces } from '@mirra/imaging/testing';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EngineContext, EngineOutput, EngineRequest } from '../engine.types.js';
import { createLocalEngine } from './local.engine.js';

// The upscale and restore modes through the local engine, on a real portrait (small, to stay fast).
const engine = createLocalEngine();
let faces: TestFaces;
let small: Buffer;

beforeAll(async () => {
  faces = await loadTestFaces();
  small = await sharp(faces.astronaut).resize(96, 96).png().toBuffer();
});

function request(overrides: Partial<EngineRequest>): EngineRequest {
  return {
    generationUuid: '00000000-0000-4000-8000-000000000000',
    mode: 'upscale',
    prompt: '',
    guidance: 7,
    seed: 1,
    style: null,
    durationSeconds: null,
    images: [{ data: small, contentType: 'image/png', width: 96, height: 96 }],
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

describe('local engine upscale and restore', () => {
  it('serves upscale and restore, saying neither is a generative AI model', () => {
    expect(engine.supports('upscale')).toBe(true);
    expect(engine.supports('restore')).toBe(true);
    expect(engine.capability?.('upscale')).toEqual({ ai: false, abilities: ['super_resolution'] });
    expect(engine.capability?.('restore')).toEqual({ ai: false, abilities: ['photo_repair'] });
  });

  it('upscales ×2 by default and ×4 when asked, with the network, labelled, progress up to 100', async () => {
    const ctx = context();
    const twice = await run({}, ctx);
    expect([twice.width, twice.height]).toEqual([192, 192]);
    expect(twice.notes.map((note) => note.code)).toEqual(['upscale.network']);
    const label = readExifLabel((await sharp(twice.data).metadata()).exif);
    expect(label.software).toBe('Mirra local engine');
    expect(label.imageDescription).toMatch(/^Upscaled by Mirra local engine/);
    expect(ctx.progress.at(-1)).toBe(100);
    expect(ctx.progress).toEqual([...ctx.progress].sort((a, b) => a - b));
    const four = await run({ settings: { scale: 4 } });
    expect([four.width, four.height]).toEqual([384, 384]);
    expect(four.notes[0]!.params).toMatchObject({ factor: 4, width: 384, height: 384 });
  });

  it('restores an aged photo: the marks filled, the faded tones stretched, a small scan enlarged', async () => {
    const { data, info } = await sharp(faces.astronaut)
      .resize(200, 200)
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const aged = ageLikeOldPrint({ data, width: info.width, height: info.height });
    const photo = await sharp(aged.image.data, { raw: { width: 200, height: 200, channels: 3 } })
      .png()
      .toBuffer();
    const output = await run({
      mode: 'restore',
      images: [{ data: photo, contentType: 'image/png', width: 200, height: 200 }],
    });
    expect([output.width, output.height]).toEqual([400, 400]);
    const codes = output.notes.map((note) => note.code);
    expect(codes).toEqual(expect.arrayContaining(['restore.defects', 'restore.levels', 'upscale.network']));
    const label = readExifLabel((await sharp(output.data).metadata()).exif);
    expect(label.imageDescription).toMatch(/^Restored by Mirra local engine/);
  });
});
