import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { GenerationStatus } from '@mirra/contracts';
import { bundledFfmpegPath } from '@mirra/imaging';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantWelcomeCredits } from '../credits/credits.usecases.js';
import { bearer, createActiveUser, createUploadFor, login } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { readC2paManifest } from './c2pa-reader.js';
import { embedC2paManifest } from './c2pa-manifest.js';
import { generations } from '../generations/generations.tables.js';
import { markOutput, provenanceSigner, recordOutputHash } from './provenance.usecases.js';

const AI = 'http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia';

let t: TestApp;
let headers: Record<string, string>;
let userId: number;
beforeAll(async () => {
  t = await createTestApp({
    env: { FREE_DAILY_PHOTOS: '1000', PRICE_SIMPLE: '1', PRICE_EDITING: '1', RATE_LIMIT_VERIFY_PER_IP: '10' },
  });
  const user = await createActiveUser(t);
  userId = user.id;
  await grantWelcomeCredits(t.deps.db, user.id, 20);
  headers = bearer((await login(t, user.email!, user.password)).access);
});
afterAll(() => t.close());

async function generate(body: object) {
  const created = await t.app.inject({ method: 'POST', url: '/api/generations/', headers, payload: body });
  expect(created.statusCode, created.body).toBe(201);
  await t.runJobs();
  const done = (
    await t.app.inject({ method: 'GET', url: `/api/generations/${created.json().uuid}/`, headers })
  ).json();
  expect(done.status, done.error_detail).toBe(GenerationStatus.COMPLETED);
  const file = await t.fetchMedia(done.result.download_url);
  expect(file.statusCode).toBe(200);
  return { data: file.rawPayload, contentType: file.headers['content-type']! };
}

/** The development root this app signs under: the only anchor the reader trusts. */
const anchors = async () => (await provenanceSigner(t.deps, new Date())).developmentRootPem;

async function verify(data: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)]), 'picture');
  const request = new Request('http://x/', { method: 'POST', body: form });
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/verify/',
    headers: { 'content-type': request.headers.get('content-type')! },
    payload: Buffer.from(await request.arrayBuffer()),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

describe('provenance of outputs', () => {
  it(
    'a downloaded result carries a signed C2PA manifest (created, AI source type) an independent reader trusts',
    { timeout: 60_000 },
    async () => {
      const made = await generate({ mode: 'simple', prompt: 'a red lighthouse by the sea', seed: 7 });
      expect(made.contentType).toBe('image/jpeg');
      const manifest = await readC2paManifest(made.data, made.contentType, await anchors());
      expect(manifest?.validationState).toBe('Trusted');
      expect(manifest?.failures).toEqual([]);
      expect(manifest?.actions[0]).toMatchObject({ action: 'c2pa.created', digitalSourceType: AI });
      expect(manifest?.actions[0]?.parameters).toMatchObject({ mode: 'simple', engine: 'local' });
      // The IPTC mark in XMP as well.
      const xmp = (await sharp(made.data).metadata()).xmp?.toString('utf8') ?? '';
      expect(xmp).toContain(AI);
    },
  );

  it('a changed uploaded photo says c2pa.edited', { timeout: 60_000 }, async () => {
    const photo = await sharp({
      create: { width: 480, height: 320, channels: 3, background: { r: 90, g: 140, b: 200 } },
    })
      .jpeg()
      .toBuffer();
    const upload = await createUploadFor(t, userId, photo);
    const made = await generate({
      mode: 'editing',
      prompt: 'make it black and white',
      images: [upload.uuid],
    });
    const manifest = await readC2paManifest(made.data, made.contentType, await anchors());
    expect(manifest?.validationState).toBe('Trusted');
    expect(manifest?.actions[0]).toMatchObject({ action: 'c2pa.edited', digitalSourceType: AI });
  });

  it(
    'a transparent PNG and an MP4 are signed too, and the video still plays',
    { timeout: 60_000 },
    async () => {
      const facts = { action: 'created', engine: 'local', mode: 'simple' } as const;
      const png = await sharp({
        create: { width: 64, height: 48, channels: 4, background: { r: 9, g: 9, b: 9, alpha: 0.5 } },
      })
        .png()
        .toBuffer();
      const signedPng = await markOutput(t.deps, { data: png, contentType: 'image/png' }, facts);
      const readPng = await readC2paManifest(signedPng.data, 'image/png', await anchors());
      expect(readPng?.validationState).toBe('Trusted');
      expect(readPng?.actions[0]?.digitalSourceType).toBe(AI);

      const dir = mkdtempSync(path.join(tmpdir(), 'mirra-c2pa-'));
      const ffmpeg = bundledFfmpegPath();
      execFileSync(ffmpeg, [
        '-loglevel',
        'error',
        '-f',
        'lavfi',
        '-i',
        'testsrc=size=96x64:rate=10',
        '-t',
        '1',
        '-pix_fmt',
        'yuv420p',
        '-movflags',
        '+faststart',
        path.join(dir, 'a.mp4'),
      ]);
      const mp4 = readFileSync(path.join(dir, 'a.mp4'));
      const signedMp4 = await markOutput(t.deps, { data: mp4, contentType: 'video/mp4' }, facts);
      const readMp4 = await readC2paManifest(signedMp4.data, 'video/mp4', await anchors());
      expect(readMp4?.validationState).toBe('Trusted');
      expect(readMp4?.actions[0]).toMatchObject({ action: 'c2pa.created', digitalSourceType: AI });
      writeFileSync(path.join(dir, 'b.mp4'), signedMp4.data);
      const frames = (file: string) =>
        execFileSync(ffmpeg, ['-loglevel', 'error', '-i', path.join(dir, file), '-f', 'md5', '-']).toString();
      expect(frames('b.mp4')).toBe(frames('a.mp4'));
    },
  );
});

describe("a manifest already in the engine's file", () => {
  it('is kept as the parent ingredient, not overwritten', async () => {
    const { signer } = await provenanceSigner(t.deps, new Date());
    const picture = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#468' } })
      .jpeg()
      .toBuffer();
    // A provider's signed picture (signed here with this app's key: only its presence matters).
    const fromProvider = await embedC2paManifest(
      picture,
      'image/jpeg',
      { action: 'created', engine: 'provider', mode: 'simple' },
      signer,
    );
    const reencoded = await sharp(fromProvider).jpeg({ quality: 92 }).toBuffer();
    const marked = await markOutput(
      t.deps,
      { data: reencoded, contentType: 'image/jpeg' },
      { action: 'created', engine: 'fal', mode: 'simple' },
      { data: fromProvider, contentType: 'image/jpeg' },
    );
    const manifest = await readC2paManifest(marked.data, 'image/jpeg', await anchors());
    expect(manifest?.validationState).toBe('Trusted');
    expect(manifest?.failures).toEqual([]);
    expect(manifest?.ingredients).toHaveLength(1);
    expect(manifest?.ingredients[0]?.relationship).toBe('parentOf');
    expect(manifest?.ingredients[0]?.active_manifest).toBeTruthy();
  });
});

describe('POST /api/verify/', () => {
  it(
    'recognises a result by its manifest, a stripped resized copy by its look, and not an unrelated picture',
    { timeout: 60_000 },
    async () => {
      const made = await generate({ mode: 'simple', prompt: 'a yellow house in a green field', seed: 11 });

      const original = await verify(made.data);
      expect(original.verdict).toBe('mirra');
      expect(original.manifest).toMatchObject({
        signedByMirra: true,
        valid: true,
        changedSinceSigned: false,
      });
      expect(original.manifest.actions).toContain('c2pa.created');
      expect(original.match).toMatchObject({ mode: 'simple' });

      const { width } = await sharp(made.data).metadata();
      const stripped = await sharp(made.data)
        .resize({ width: Math.round(width! * 0.9) })
        .jpeg({ quality: 80 })
        .toBuffer();
      expect(await readC2paManifest(stripped, 'image/jpeg', await anchors())).toBeNull();
      const copy = await verify(stripped);
      expect(copy.verdict).toBe('mirra_changed');
      expect(copy.manifest).toBeNull();
      expect(copy.match).toMatchObject({ mode: 'simple' });

      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="200"><rect width="300" height="200" fill="#123"/><circle cx="90" cy="80" r="60" fill="#fc0"/><rect x="170" y="60" width="100" height="120" fill="#3a8"/></svg>`;
      const unrelated = await verify(await sharp(Buffer.from(svg)).png().toBuffer());
      expect(unrelated).toMatchObject({ verdict: 'unknown', manifest: null, match: null });
    },
  );

  it(
    'recognises a video by its manifest, and a re-encoded copy without it by its first frame',
    { timeout: 60_000 },
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'mirra-verify-'));
      const ffmpeg = bundledFfmpegPath();
      const run = (...args: string[]) => execFileSync(ffmpeg, ['-loglevel', 'error', '-y', ...args]);
      run(
        '-f',
        'lavfi',
        '-i',
        'testsrc2=size=160x120:rate=10',
        '-t',
        '1',
        '-pix_fmt',
        'yuv420p',
        path.join(dir, 'a.mp4'),
      );
      run('-i', path.join(dir, 'a.mp4'), '-frames:v', '1', path.join(dir, 'poster.png'));
      const signed = await markOutput(
        t.deps,
        { data: readFileSync(path.join(dir, 'a.mp4')), contentType: 'video/mp4' },
        { action: 'created', engine: 'local', mode: 'video' },
      );
      // Kept as a video generation keeps it: the hash of its poster.
      await generate({ mode: 'simple', prompt: 'a blue boat', seed: 5 });
      const [generation] = await t.deps.db.select({ id: generations.id }).from(generations).limit(1);
      await recordOutputHash(t.deps, {
        generationId: generation!.id,
        still: readFileSync(path.join(dir, 'poster.png')),
        mode: 'video',
      });

      expect(await verify(signed.data)).toMatchObject({
        verdict: 'mirra',
        manifest: { signedByMirra: true },
      });
      writeFileSync(path.join(dir, 'signed.mp4'), signed.data);
      run(
        '-i',
        path.join(dir, 'signed.mp4'),
        '-map_metadata',
        '-1',
        '-vf',
        'scale=144:108',
        '-pix_fmt',
        'yuv420p',
        path.join(dir, 'copy.mp4'),
      );
      const copy = await verify(readFileSync(path.join(dir, 'copy.mp4')));
      expect(copy).toMatchObject({ verdict: 'mirra_changed', manifest: null, match: { mode: 'video' } });
    },
  );

  it('refuses what is not a picture or a video', async () => {
    const form = new FormData();
    form.append('file', new Blob(['hello, not a picture at all']), 'x.txt');
    const request = new Request('http://x/', { method: 'POST', body: form });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/verify/',
      headers: { 'content-type': request.headers.get('content-type')! },
      payload: Buffer.from(await request.arrayBuffer()),
    });
    expect(response.statusCode).toBe(415);
  });

  it('is limited like other public uploads: by size, and per address', async () => {
    const send = async (payload: Buffer, remoteAddress: string) => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(payload)]), 'x.bin');
      const request = new Request('http://x/', { method: 'POST', body: form });
      return t.app.inject({
        method: 'POST',
        url: '/api/verify/',
        remoteAddress,
        headers: { 'content-type': request.headers.get('content-type')! },
        payload: Buffer.from(await request.arrayBuffer()),
      });
    };
    const tooBig = await send(Buffer.alloc(t.deps.config.uploads.maxBytes + 1024), '10.0.0.7');
    expect(tooBig.statusCode).toBe(413);
    const small = Buffer.from('not a picture, but small');
    // The one above counted; the rest of the allowance is let through to the file check, the next is refused.
    for (let i = 1; i < t.deps.config.rateLimits.verifyPerIp; i++) {
      expect((await send(small, '10.0.0.7')).statusCode).toBe(415);
    }
    expect((await send(small, '10.0.0.7')).statusCode).toBe(429);
    // Another address is not held back.
    expect((await send(small, '10.0.0.8')).statusCode).toBe(415);
  });
});
