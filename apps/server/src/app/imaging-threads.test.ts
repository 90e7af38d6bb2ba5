import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFaceProfile, createFaceAnalyzer } from '@mirra/imaging';
import { loadTestFaces, makePhotoSet } from '@mirra/imaging/testing';
import {
  createLocalEngine,
  EngineError,
  type EngineContext,
  type EngineFaceModel,
  type EngineOutput,
  type EngineRequest,
  type GenerationEngine,
} from '../engines/index.js';
import { classifyNsfw } from '../modules/moderation/index.js';
import { createTestApp } from '../test/test-app.js';
import { createImagingThreads, pooledFaceAnalyzer, pooledNsfwClassifier } from './imaging-threads.js';

/**
 * The imaging pool: the local engine, face analysis and the NSFW classifier run on pool threads
 * and give exactly what they give on the caller's thread, errors and cancellation included.
 */
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const pool = createImagingThreads(1);
const threaded = createLocalEngine({ threads: pool });
const inThread = createLocalEngine();

afterAll(async () => {
  await pool.close();
});

function request(overrides: Partial<EngineRequest>): EngineRequest {
  return {
    generationUuid: '00000000-0000-4000-8000-000000000000',
    mode: 'simple',
    prompt: 'a lighthouse on a cliff at sunset',
    guidance: 7,
    seed: 3,
    style: null,
    durationSeconds: null,
    images: [],
    ...overrides,
  };
}

function context(overrides: Partial<EngineContext> = {}): EngineContext & { progress: number[] } {
  const progress: number[] = [];
  return {
    progress,
    onProgress: (value) => void progress.push(value),
    signal: new AbortController().signal,
    ...overrides,
  };
}

async function render(
  engine: GenerationEngine,
  overrides: Partial<EngineRequest>,
  ctx: EngineContext = context(),
): Promise<EngineOutput> {
  const started = await engine.start(request(overrides), ctx);
  if (started.kind !== 'done') throw new Error('the local engine always finishes in start()');
  return started.output;
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (error: unknown) => error,
  );
}

let photo: Buffer;
beforeAll(async () => {
  const faces = await loadTestFaces();
  photo = await sharp(faces.astronaut).resize(640).jpeg({ quality: 90 }).toBuffer();
});

const photoImage = (data: Buffer) => ({ data, contentType: 'image/jpeg', width: 640, height: 640 });

describe('the local engine on a pool thread', () => {
  it.each<[string, Partial<EngineRequest>]>([
    ['simple', {}],
    ['editing', { mode: 'editing', prompt: 'crop to square, brighter, black and white' }],
    ['styling', { mode: 'styling', style: 'watercolor' }],
  ])(
    'gives the same bytes, notes and progress as on the calling thread (%s)',
    { timeout: 60_000 },
    async (_mode, overrides) => {
      const withPhoto = overrides.mode ? { ...overrides, images: [photoImage(photo)] } : overrides;
      const here = context();
      const there = context();
      const expected = await render(inThread, withPhoto, here);
      const actual = await render(threaded, withPhoto, there);
      expect(Buffer.isBuffer(actual.data)).toBe(true);
      expect(actual.data.equals(expected.data)).toBe(true);
      expect({ ...actual, data: null }).toEqual({ ...expected, data: null });
      expect(there.progress).toEqual(here.progress);
      expect(there.progress.at(-1)).toBe(100);
    },
  );

  it(
    'asks the caller for the digital model’s photos and makes the same face photo',
    { timeout: 120_000 },
    async () => {
      const faces = await loadTestFaces();
      const analyzer = createFaceAnalyzer();
      const photos = new Map<string, Buffer>();
      const analysed = [];
      for (const [index, set] of (await makePhotoSet(faces.astronaut, 4)).entries()) {
        photos.set(`p${index}`, set);
        analysed.push({ photoId: `p${index}`, analysis: await analyzer.analyze(set) });
      }
      const asked: string[] = [];
      const faceModel: EngineFaceModel = {
        uuid: 'test',
        profile: buildFaceProfile(analysed),
        loadReferencePhoto: async (photoId) => {
          asked.push(photoId);
          return photos.get(photoId)!;
        },
      };
      const overrides = { mode: 'face_swap' as const, prompt: 'on a beach', faceModel };
      const expected = await render(inThread, overrides);
      const askedHere = asked.splice(0);
      const actual = await render(threaded, overrides);
      expect(asked.length).toBeGreaterThan(0);
      expect(asked).toEqual(askedHere);
      expect(actual.data.equals(expected.data)).toBe(true);
    },
  );

  it('fails with the same EngineError as on the calling thread', async () => {
    const notUnderstood = { mode: 'editing' as const, prompt: 'qwzx', images: [photoImage(photo)] };
    const expected = await caught(render(inThread, notUnderstood));
    const actual = await caught(render(threaded, notUnderstood));
    expect(actual).toBeInstanceOf(EngineError);
    expect(actual).toMatchObject({
      code: 'engine.bad_input',
      retryable: false,
      reason: 'edit_not_understood',
    });
    expect((actual as EngineError).message).toBe((expected as EngineError).message);

    const unreadable = {
      mode: 'styling' as const,
      style: 'oil' as const,
      images: [photoImage(Buffer.from('no'))],
    };
    expect(await caught(render(threaded, unreadable))).toMatchObject({
      code: 'engine.bad_input',
      reason: 'unreadable_photo',
    });
  });

  it('stops waiting as soon as the job is cancelled, with the reason it was cancelled with', async () => {
    const controller = new AbortController();
    const reason = new EngineError('engine.failed', 'shutting down', true);
    const ctx = context({
      signal: controller.signal,
      onProgress: (value) => {
        ctx.progress.push(value);
        if (value >= 10) controller.abort(reason);
      },
    });
    const error = await caught(
      render(threaded, { mode: 'styling', style: 'oil', images: [photoImage(photo)] }, ctx),
    );
    expect(error).toBeInstanceOf(EngineError);
    expect(error).toMatchObject({ code: 'engine.failed', message: 'shutting down', retryable: true });
    const reported = ctx.progress.length;
    expect(ctx.progress).not.toContain(100);

    const timedOut = new AbortController();
    timedOut.abort(new DOMException('took too long', 'TimeoutError'));
    expect(await caught(render(threaded, {}, context({ signal: timedOut.signal })))).toMatchObject({
      code: 'engine.timeout',
      retryable: true,
    });

    // The thread was told to stop, not killed: it serves the next render, and the cancelled one
    // reports nothing more.
    const next = await render(threaded, {});
    expect(next.contentType).toBe('image/png');
    expect(ctx.progress.length).toBe(reported);
  }, 60_000);

  it('fails a render whose progress cannot be recorded, as on the calling thread', async () => {
    const broken = context({
      onProgress: async () => {
        throw new Error('the database is gone');
      },
    });
    expect(await caught(render(threaded, {}, broken))).toMatchObject({ message: 'the database is gone' });
  });
});

describe('face analysis and the NSFW classifier on a pool thread', () => {
  it('finds the same faces as on the calling thread', { timeout: 60_000 }, async () => {
    const expected = await createFaceAnalyzer().analyze(photo);
    const actual = await pooledFaceAnalyzer(pool).analyze(photo);
    expect(expected.faces.length).toBe(1);
    expect(actual).toEqual(expected);
  });

  it('scores an image as on the calling thread', { timeout: 60_000 }, async () => {
    const expected = await classifyNsfw(photo);
    const actual = await pooledNsfwClassifier(pool)(photo);
    expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
    for (const [name, score] of Object.entries(expected)) {
      expect(actual[name as keyof typeof actual]).toBeCloseTo(score, 5);
    }
  });
});

describe('stopping a process', () => {
  it('closes the pool when the runtime stops: no thread is left running', { timeout: 120_000 }, async () => {
    const t = await createTestApp({ env: { MODERATION_IMAGES: 'false' } });
    const dir = await mkdtemp(path.join(os.tmpdir(), 'mirra-pool-'));
    try {
      const script = `
        import { startRuntime } from '${serverDir}/src/app/runtime.ts';
        const runtime = await startRuntime({ api: false, worker: true });
        const started = await runtime.deps.engines.byName('local').start(
          { generationUuid: 'x', mode: 'simple', prompt: 'a tree', guidance: 7, seed: 1, style: null,
            durationSeconds: null, images: [] },
          { onProgress() {}, signal: new AbortController().signal },
        );
        console.log('rendered', started.output.data.length, 'threads', runtime.deps.imagingThreads.liveThreads());
        await runtime.stop();
        console.log('stopped, threads', runtime.deps.imagingThreads.liveThreads());
      `;
      const file = path.join(dir, 'stop-runtime.mts');
      await writeFile(file, script);
      const child = spawn(process.execPath, ['--import', 'tsx', file], {
        cwd: serverDir,
        env: {
          ...process.env,
          NODE_ENV: 'test',
          LOG_LEVEL: 'warn',
          DATABASE_URL: t.connectionString,
          DATA_DIR: t.deps.config.dataDir,
          MODERATION_IMAGES: 'false',
          IMAGING_THREADS: '2',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      const exited = await new Promise<number | null>((resolve) => {
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          resolve(null);
        }, 90_000);
        child.on('exit', (code) => {
          clearTimeout(timer);
          resolve(code);
        });
      });
      expect(output).toMatch(/rendered \d+ threads 2/);
      expect(output).toContain('stopped, threads 0');
      // Nothing else holds the process: it ends by itself after stop().
      expect(exited, output).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
      await t.close();
    }
  });
});
