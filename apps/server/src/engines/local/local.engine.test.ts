import {
  GENERATION_NOTE_CODES,
  type TGenerationFailureReason,
  type TGenerationMode,
  type TStyle,
} from '@mirra/contracts';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { type EngineContext, EngineError, type EngineOutput, type EngineRequest } from '../engine.types.js';
import { readFile } from 'node:fs/promises';
import { readExifLabel, countDistinctColours, EDITING_EXAMPLES, rawFrom } from '@mirra/imaging';
import { createLocalEngine } from './local.engine.js';

const texts = (notes: Array<{ text: string }>) => notes.map((note) => note.text);

const engine = createLocalEngine();

/**
 * A photo-like test image made on the spot: sky gradient, sun, hills, a person-ish figure (hair,
 * face with eyes and mouth, shirt), and sensor noise, so filters see edges, flat areas and texture.
 */
async function makePhoto(width = 768, height = 576): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 768 576">
    <defs>
      <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#3d7bd9"/><stop offset="1" stop-color="#cfe6f7"/></linearGradient>
      <radialGradient id="skin" cx="0.45" cy="0.4"><stop offset="0" stop-color="#f3c9a8"/><stop offset="1" stop-color="#c98e6a"/></radialGradient>
    </defs>
    <rect width="768" height="576" fill="url(#sky)"/>
    <circle cx="640" cy="90" r="45" fill="#fff3b0"/>
    <path d="M0 380 Q 200 300 380 370 T 768 350 V 576 H 0 Z" fill="#4f8f45"/>
    <path d="M0 450 Q 250 400 500 460 T 768 440 V 576 H 0 Z" fill="#3a6d33"/>
    <ellipse cx="384" cy="560" rx="170" ry="150" fill="#b8324a"/>
    <ellipse cx="384" cy="250" rx="105" ry="125" fill="#5a3520"/>
    <ellipse cx="384" cy="280" rx="85" ry="105" fill="url(#skin)"/>
    <ellipse cx="350" cy="265" rx="12" ry="7" fill="#ffffff"/><circle cx="350" cy="265" r="5" fill="#3b2a1a"/>
    <ellipse cx="418" cy="265" rx="12" ry="7" fill="#ffffff"/><circle cx="418" cy="265" r="5" fill="#3b2a1a"/>
    <path d="M350 330 Q 384 355 418 330" stroke="#8c3b3b" stroke-width="6" fill="none"/>
    <rect x="60" y="300" width="40" height="120" fill="#6b4a2b"/><circle cx="80" cy="280" r="55" fill="#2f6b2a"/>
  </svg>`;
  const base = await rawFrom(sharp(Buffer.from(svg)).flatten().removeAlpha());
  // Deterministic sensor noise (an LCG), so the "photo" has the many colours real photos have.
  let state = 12345;
  for (let i = 0; i < base.data.length; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    base.data[i] = Math.max(0, Math.min(255, base.data[i]! + ((state >>> 24) % 17) - 8));
  }
  return sharp(base.data, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
}

let photo: Buffer;
beforeAll(async () => {
  photo = await makePhoto();
});

function request(overrides: Partial<EngineRequest>): EngineRequest {
  return {
    generationUuid: '00000000-0000-4000-8000-000000000000',
    mode: 'simple',
    prompt: '',
    guidance: 7,
    seed: 1,
    style: null,
    durationSeconds: null,
    images: [],
    ...overrides,
  };
}

const photoImage = (data: Buffer, width = 768, height = 576) => ({
  data,
  contentType: 'image/jpeg',
  width,
  height,
});

function context(overrides: Partial<EngineContext> = {}): EngineContext & { progress: number[] } {
  const progress: number[] = [];
  return {
    progress,
    onProgress: (value) => void progress.push(value),
    signal: new AbortController().signal,
    ...overrides,
  };
}

async function run(overrides: Partial<EngineRequest>, ctx: EngineContext = context()): Promise<EngineOutput> {
  const result = await engine.start(request(overrides), ctx);
  if (result.kind !== 'done') throw new Error('the local engine always finishes in start()');
  return result.output;
}

async function pixels(data: Buffer) {
  return rawFrom(sharp(data).removeAlpha().toColourspace('srgb'));
}

/** Mean absolute difference per channel value between two same-sized images, 0–255. */
async function meanDifference(a: Buffer, b: Buffer): Promise<number> {
  const [pa, pb] = await Promise.all([pixels(a), pixels(b)]);
  expect([pa.width, pa.height]).toEqual([pb.width, pb.height]);
  let sum = 0;
  for (let i = 0; i < pa.data.length; i++) sum += Math.abs(pa.data[i]! - pb.data[i]!);
  return sum / pa.data.length;
}

async function meanLuminance(data: Buffer): Promise<number> {
  const stats = await sharp(data).greyscale().stats();
  return stats.channels[0]!.mean;
}

async function expectBadInput(promise: Promise<unknown>, message: RegExp, reason: TGenerationFailureReason) {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(EngineError);
  expect(error).toMatchObject({ code: 'engine.bad_input', retryable: false, reason });
  if (message) expect((error as EngineError).message).toMatch(message);
}

describe('local engine', () => {
  it('serves simple, editing, styling, face swap and video', () => {
    expect(engine.name).toBe('local');
    const modes: TGenerationMode[] = ['simple', 'editing', 'styling', 'face_swap', 'video'];
    expect(modes.filter((mode) => engine.supports(mode))).toEqual(modes);
  });

  it('refuses video with neither a photo nor a description as bad input', async () => {
    await expectBadInput(
      engine.start(request({ mode: 'video' }), context()),
      /photo|scene/,
      'needs_photo_or_scene',
    );
  });

  it('refuses face swap without a digital model as bad input', async () => {
    await expectBadInput(
      engine.start(request({ mode: 'face_swap' }), context()),
      /digital model/,
      'needs_model',
    );
  });
});

describe('simple mode', () => {
  it('renders a labelled 1024×1024 PNG from the prompt', async () => {
    const output = await run({ prompt: 'sunset over the mountains and a lake' });
    expect(output).toMatchObject({ contentType: 'image/png', width: 1024, height: 1024, procedural: true });
    const metadata = await sharp(output.data).metadata();
    expect(metadata).toMatchObject({ format: 'png', width: 1024, height: 1024 });
    expect(readExifLabel(metadata.exif)).toEqual({
      imageDescription: 'Made by Mirra local engine: procedural rendering from prompt keywords, offline',
      software: 'Mirra local engine',
    });
    expect(metadata.xmp?.toString()).toContain('Mirra local engine');
    expect(texts(output.notes)[0]).toMatch(/procedural rendering .* not generated by an AI model/i);
    expect(texts(output.notes)).toContain('Keywords used: sunset, mountains, lake.');
  });

  it('reproduces the same bytes for the same prompt and seed, and a different picture for another seed', async () => {
    const prompt = 'starry night over the ocean';
    const [first, again, other] = await Promise.all([
      run({ prompt, seed: 42 }),
      run({ prompt, seed: 42 }),
      run({ prompt, seed: 43 }),
    ]);
    expect(first.data.equals(again.data)).toBe(true);
    expect(first.data.equals(other.data)).toBe(false);
    expect(await meanDifference(first.data, other.data)).toBeGreaterThan(3);
  });

  it('takes the shape from the prompt', async () => {
    expect(await run({ prompt: 'portrait with flowers' })).toMatchObject({ width: 768, height: 1024 });
    expect(await run({ prompt: 'wide desert panorama' })).toMatchObject({ width: 1024, height: 576 });
  });

  it('draws a pleasant abstract picture for prompts with nothing it can draw, varying with the seed', async () => {
    const [a, b] = await Promise.all([
      run({ prompt: 'my birthday wish', seed: 1 }),
      run({ prompt: 'my birthday wish', seed: 2 }),
    ]);
    expect(texts(a.notes)[1]).toMatch(/abstract composition/);
    expect(await meanDifference(a.data, b.data)).toBeGreaterThan(10);
    const stats = await sharp(a.data).stats();
    // Not a flat fill: real colour structure.
    expect(stats.channels.some((channel) => channel.stdev > 20)).toBe(true);
  });

  it('reports progress in order, ending at 100', async () => {
    const ctx = context();
    await run({ prompt: 'city skyline at night' }, ctx);
    expect(ctx.progress[0]).toBe(10);
    expect(ctx.progress.at(-1)).toBe(100);
    expect(ctx.progress).toContain(80);
    for (let i = 1; i < ctx.progress.length; i++)
      expect(ctx.progress[i]).toBeGreaterThan(ctx.progress[i - 1]!);
  });
});

describe('editing mode', () => {
  const edit = (prompt: string, data = photo) => run({ mode: 'editing', prompt, images: [photoImage(data)] });

  it('crops, brightens and removes colour from one sentence, saying what it understood', async () => {
    const output = await edit('make it brighter, crop to square and black and white');
    expect(output).toMatchObject({ width: 576, height: 576, contentType: 'image/png', procedural: false });
    expect(texts(output.notes)).toEqual(['cropped to 1:1', 'brightness +20%', 'black and white']);
    const { channels } = await sharp(output.data).stats();
    expect(channels).toHaveLength(3);
    const raw = await pixels(output.data);
    let coloured = 0;
    for (let p = 0; p < raw.data.length; p += 3) {
      if (raw.data[p] !== raw.data[p + 1] || raw.data[p + 1] !== raw.data[p + 2]) coloured++;
    }
    expect(coloured).toBe(0);
    expect(readExifLabel((await sharp(output.data).metadata()).exif).software).toBe('Mirra local engine');
  });

  it('raises mean luminance when asked for brighter, lowers it for darker', async () => {
    const before = await meanLuminance(photo);
    expect(await meanLuminance((await edit('much brighter')).data)).toBeGreaterThan(before + 15);
    expect(await meanLuminance((await edit('darker')).data)).toBeLessThan(before - 8);
  });

  it.each([
    ['rotate left', 576, 768],
    ['rotate 180', 768, 576],
    ['crop 16:9', 768, 432],
    ['crop to portrait', 461, 576],
    ['crop the center', 614, 461],
    ['upscale 2x', 1536, 1152],
    ['upscale to 1000', 1000, 750],
    ['upscale 8x', 4096, 3072],
  ])('%s → %i×%i', async (instruction, width, height) => {
    const output = await edit(instruction);
    expect([output.width, output.height]).toEqual([width, height]);
    const metadata = await sharp(output.data).metadata();
    expect([metadata.width, metadata.height]).toEqual([width, height]);
  });

  it('says when an upscale was capped', async () => {
    const output = await edit('upscale 8x');
    expect(texts(output.notes)).toEqual([
      'upscaled 5.33× to 4096×3072 (capped at 4096 px), Lanczos with light sharpening',
    ]);
  });

  it('rotates content, not just the canvas: the top row becomes the right column on "rotate right"', async () => {
    const source = await pixels(photo);
    const output = await pixels((await edit('rotate right')).data);
    // Pixel (x=0, y=0) of the source lands at (x=width-1, y=0) of the result.
    const at = (image: typeof source, x: number, y: number) => image.data[(y * image.width + x) * 3]!;
    expect(Math.abs(at(output, output.width - 1, 0) - at(source, 0, 0))).toBeLessThan(12);
  });

  it('blurs the background but keeps the centre', async () => {
    const output = await edit('blur the background');
    const [a, b] = await Promise.all([pixels(photo), pixels(output.data)]);
    const diff = (x0: number, y0: number, size: number) => {
      let sum = 0;
      for (let y = y0; y < y0 + size; y++) {
        for (let x = x0; x < x0 + size; x++) {
          const p = (y * a.width + x) * 3;
          sum += Math.abs(a.data[p]! - b.data[p]!);
        }
      }
      return sum / (size * size);
    };
    const centre = diff(384 - 40, 260 - 40, 80);
    const corner = diff(40, 300, 80);
    expect(corner).toBeGreaterThan(centre * 2);
    expect(centre).toBeLessThan(3);
  });

  it('sharpens (more local contrast) and desaturates measurably', async () => {
    /** Mean absolute Laplacian of luminance: how much fine local contrast there is. */
    const laplacian = async (data: Buffer) => {
      const gray = await rawFrom(sharp(data).greyscale());
      const { width, height } = gray;
      let sum = 0;
      for (let y = 1; y < height - 1; y++) {
        for (let x = 1; x < width - 1; x++) {
          const i = y * width + x;
          const d = gray.data;
          sum += Math.abs(4 * d[i]! - d[i - 1]! - d[i + 1]! - d[i - width]! - d[i + width]!);
        }
      }
      return sum / ((width - 2) * (height - 2));
    };
    expect(await laplacian((await edit('sharpen')).data)).toBeGreaterThan(await laplacian(photo));
    const saturation = async (data: Buffer) => {
      const raw = await pixels(data);
      let sum = 0;
      for (let p = 0; p < raw.data.length; p += 3) {
        sum +=
          Math.max(raw.data[p]!, raw.data[p + 1]!, raw.data[p + 2]!) -
          Math.min(raw.data[p]!, raw.data[p + 1]!, raw.data[p + 2]!);
      }
      return sum / (raw.data.length / 3);
    };
    expect(await saturation((await edit('desaturate')).data)).toBeLessThan((await saturation(photo)) * 0.8);
  });

  it('does every editing example the app shows, in full: the form placeholder of each language and the examples', async () => {
    const locales = new URL('../../../../web/src/locales/', import.meta.url);
    const placeholders = await Promise.all(
      ['en', 'ru', 'de', 'uk', 'kk', 'az'].map(async (language) => {
        const catalogue = JSON.parse(await readFile(new URL(`${language}.json`, locales), 'utf8')) as {
          modes: { editing: { placeholder: string } };
        };
        return catalogue.modes.editing.placeholder;
      }),
    );
    const small = await sharp(photo).resize(320).jpeg().toBuffer();
    for (const example of new Set([...placeholders, ...EDITING_EXAMPLES])) {
      const output = await edit(example, small);
      const codes = output.notes.map((note) => note.code);
      expect(codes, example).not.toContain('edit.ignored');
      expect(codes.length, example).toBeGreaterThan(0);
      expect(output.data.equals(small), example).toBe(false);
    }
  });

  it('"make the sky a dramatic sunset and add soft fog": the sky turns from blue to sunset colours', async () => {
    const output = await edit('Make the sky a dramatic sunset and add soft fog');
    expect(output.notes.map((note) => note.code)).toEqual([
      'edit.sky_sunset',
      'edit.light_sunset',
      'edit.fog',
    ]);
    const before = await pixels(photo);
    const after = await pixels(output.data);
    // The sky of the test photo: the top rows left of the sun.
    const mean = (raw: { data: Buffer; width: number }, channel: number) => {
      let sum = 0;
      let n = 0;
      for (let y = 0; y < 80; y++) {
        for (let x = 0; x < 300; x++) {
          sum += raw.data[(y * raw.width + x) * 3 + channel]!;
          n++;
        }
      }
      return sum / n;
    };
    // Blue over red before; the sunset (purple at the zenith, orange low) moves red past it by far.
    expect(mean(before, 2) - mean(before, 0)).toBeGreaterThan(50);
    expect(mean(after, 0) - mean(after, 2) - (mean(before, 0) - mean(before, 2))).toBeGreaterThan(40);
  });

  it('reports what it left out', async () => {
    const output = await edit('sepia and straighten the horizon');
    expect(texts(output.notes)).toEqual([
      'sepia tone',
      'Not understood, left out: "straighten the horizon".',
    ]);
    expect(output.notes.map(({ code, params }) => ({ code, params }))).toEqual([
      { code: 'edit.sepia', params: {} },
      { code: 'edit.ignored', params: { parts: '"straighten the horizon"' } },
    ]);
  });

  it('refuses an instruction with nothing it understands, with examples, as non-retryable bad input', async () => {
    await expectBadInput(
      edit('make me look like a superhero'),
      /"make it brighter".*"crop to square"/,
      'edit_not_understood',
    );
  });

  it('needs exactly one photo', async () => {
    await expectBadInput(
      run({ mode: 'editing', prompt: 'brighter', images: [] }),
      /exactly one photo/,
      'needs_one_photo',
    );
    await expectBadInput(
      run({ mode: 'editing', prompt: 'brighter', images: [photoImage(photo), photoImage(photo)] }),
      /exactly one photo/,
      'needs_one_photo',
    );
  });

  it('refuses a file that is not an image', async () => {
    await expectBadInput(
      run({ mode: 'editing', prompt: 'brighter', images: [photoImage(Buffer.from('not an image at all'))] }),
      /could not be read/,
      'unreadable_photo',
    );
  });
});

describe('styling mode', () => {
  const styles: TStyle[] = ['cartoon', 'toy', 'oil', 'watercolor', 'pencil', 'pop_art'];
  const outputs = new Map<TStyle, EngineOutput>();

  beforeAll(async () => {
    for (const style of styles) {
      outputs.set(style, await run({ mode: 'styling', style, seed: 7, images: [photoImage(photo)] }));
    }
  }, 60_000);

  it.each(styles)(
    '%s: a labelled PNG of the same size that differs clearly from the photo',
    async (style) => {
      const output = outputs.get(style)!;
      expect(output).toMatchObject({ contentType: 'image/png', width: 768, height: 576, procedural: false });
      expect(await meanDifference(output.data, await sharp(photo).png().toBuffer())).toBeGreaterThan(8);
      expect(readExifLabel((await sharp(output.data).metadata()).exif).imageDescription).toMatch(
        /Styled by Mirra local engine/,
      );
      expect(texts(output.notes)[0]).toMatch(/style by the offline local engine/);
      expect(texts(output.notes).length).toBeGreaterThan(2);
      // Every step has its own code, so the app can word each one in the user's language.
      const codes = output.notes.map((note) => note.code);
      const stepCodes = GENERATION_NOTE_CODES.filter((code) => code.startsWith(`styling.${style}.`));
      // The test photo is a portrait: the styles that would smear its face style it again at its scale.
      const faceKept = ['cartoon', 'toy', 'oil'].includes(style) ? ['styling.faces_kept'] : [];
      expect(codes).toEqual(['styling.intro', ...stepCodes, ...faceKept]);
      expect(output.notes[0]!.params).toEqual({ style });
    },
  );

  it('gives every style its own look', async () => {
    for (let i = 0; i < styles.length; i++) {
      for (let j = i + 1; j < styles.length; j++) {
        const difference = await meanDifference(outputs.get(styles[i]!)!.data, outputs.get(styles[j]!)!.data);
        expect(difference, `${styles[i]} vs ${styles[j]}`).toBeGreaterThan(8);
      }
    }
  });

  it('pencil is a grey drawing', async () => {
    const raw = await pixels(outputs.get('pencil')!.data);
    let spread = 0;
    for (let p = 0; p < raw.data.length; p += 3) spread += Math.abs(raw.data[p]! - raw.data[p + 2]!);
    expect(spread / (raw.data.length / 3)).toBeLessThan(6);
  });

  it('pop art is a few flat colours; cartoon has far fewer colours than the photo', async () => {
    const input = countDistinctColours(await pixels(photo));
    expect(countDistinctColours(await pixels(outputs.get('pop_art')!.data))).toBeLessThanOrEqual(24);
    expect(countDistinctColours(await pixels(outputs.get('cartoon')!.data))).toBeLessThan(input / 4);
  });

  it('is deterministic for the same seed', async () => {
    const again = await run({ mode: 'styling', style: 'oil', seed: 7, images: [photoImage(photo)] });
    expect(again.data.equals(outputs.get('oil')!.data)).toBe(true);
  });

  it('works on at most 1536 px on the long side and says so', async () => {
    const big = await sharp(photo).resize(2000, 1500).jpeg().toBuffer();
    const output = await run({ mode: 'styling', style: 'pencil', images: [photoImage(big, 2000, 1500)] });
    expect([output.width, output.height]).toEqual([1536, 1152]);
    expect(texts(output.notes).at(-1)).toMatch(/1536×1152/);
  });

  it('needs a known style and exactly one photo', async () => {
    await expectBadInput(
      run({ mode: 'styling', style: null, images: [photoImage(photo)] }),
      /Choose a style/,
      'style_missing',
    );
    await expectBadInput(
      run({ mode: 'styling', style: 'oil', images: [] }),
      /exactly one photo/,
      'needs_one_photo',
    );
  });
});

describe('progress and cancellation', () => {
  it('editing reports increasing progress from 10 to 100', async () => {
    const ctx = context();
    await run(
      { mode: 'editing', prompt: 'brighter, more contrast, sharpen', images: [photoImage(photo)] },
      ctx,
    );
    expect(ctx.progress[0]).toBe(10);
    expect(ctx.progress.at(-1)).toBe(100);
    expect(ctx.progress.length).toBeGreaterThanOrEqual(5);
    for (let i = 1; i < ctx.progress.length; i++)
      expect(ctx.progress[i]).toBeGreaterThan(ctx.progress[i - 1]!);
  });

  it('does nothing when cancelled before it starts', async () => {
    const controller = new AbortController();
    controller.abort();
    const ctx = context({ signal: controller.signal });
    await expect(run({ prompt: 'ocean' }, ctx)).rejects.toMatchObject({
      code: 'engine.unavailable',
      retryable: true,
    });
    expect(ctx.progress).toEqual([]);
  });

  it('stops between stages when cancelled midway, and reports nothing after', async () => {
    const controller = new AbortController();
    const progress: number[] = [];
    const ctx: EngineContext = {
      signal: controller.signal,
      onProgress: (value) => {
        progress.push(value);
        if (value > 10) controller.abort();
      },
    };
    await expect(
      run({ mode: 'styling', style: 'oil', images: [photoImage(photo)] }, ctx),
    ).rejects.toBeInstanceOf(EngineError);
    expect(progress.at(-1)).toBeLessThan(80);
    expect(progress).not.toContain(100);
  });

  it('passes on the reason it was cancelled with', async () => {
    const timeout = new AbortController();
    timeout.abort(new DOMException('took too long', 'TimeoutError'));
    await expect(run({ prompt: 'ocean' }, context({ signal: timeout.signal }))).rejects.toMatchObject({
      code: 'engine.timeout',
      retryable: true,
    });
    const own = new AbortController();
    const reason = new EngineError('engine.failed', 'shutting down', true);
    own.abort(reason);
    await expect(run({ prompt: 'ocean' }, context({ signal: own.signal }))).rejects.toBe(reason);
  });
});
