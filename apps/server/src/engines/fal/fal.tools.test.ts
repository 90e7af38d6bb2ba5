import sharp from 'sharp';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFalFake, type FalFake } from '../../fakes/fal.fake.js';
import { grantWelcomeCredits } from '../../modules/credits/credits.usecases.js';
import { creditEntries } from '../../shared/db/schema.js';
import { bearer, createActiveUser, createUploadFor, login } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/**
 * Several pictures a run, frame shapes and the tools at fal, against the fake fal: what each model
 * receives (sizes, counts, factors, masks, the garment) and what comes back into Mirra's storage,
 * and a refusal refunded.
 */
let fal: FalFake;
let t: TestApp;
let owner: { id: number; headers: Record<string, string> };

const TOOLS = ['simple', 'upscale', 'restore', 'background', 'inpaint', 'outpaint', 'try_on'];

beforeAll(async () => {
  fal = await startFalFake({ queueSteps: 1, progressSteps: 1 });
  t = await createTestApp({
    env: {
      // fal alone: a failure is not made good by another engine, so its refund shows.
      ...Object.fromEntries(TOOLS.map((mode) => [`ENGINE_${mode.toUpperCase()}`, 'fal'])),
      FAL_KEY: fal.key,
      FAL_BASE_URL: fal.url,
      FAL_JWKS_URL: fal.jwksUrl,
      FAL_USER_ID: fal.userId,
      FREE_DAILY_PHOTOS: '1000',
      PRICE_SIMPLE: '2',
      PRICE_UPSCALE: '3',
      PRICE_INPAINT: '4',
    },
  });
  const user = await createActiveUser(t);
  await grantWelcomeCredits(t.deps.db, user.id, 200);
  owner = { id: user.id, headers: bearer((await login(t, user.email!, user.password)).access) };
}, 120_000);
afterAll(async () => {
  await t?.close();
  await fal?.close();
});

const photoOf = (width: number, height: number, colour = '#6688aa') =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();

async function createAndRun(body: object) {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/generations/',
    headers: owner.headers,
    payload: body,
  });
  expect(created.statusCode, created.body).toBe(201);
  await t.runJobs();
  return created.json() as { uuid: string; set: { uuid: string } | null };
}

async function shown(uuid: string) {
  return (
    await t.app.inject({ method: 'GET', url: `/api/generations/${uuid}/`, headers: owner.headers })
  ).json();
}

async function jobOf(uuid: string) {
  const row = (await t.deps.db.query.generations.findFirst({ where: (g, { eq }) => eq(g.uuid, uuid) }))!;
  return fal.jobs.get(row.providerJobId!.split(' ')[0]!)!;
}

async function original(uuid: string) {
  const row = (await t.deps.db.query.generations.findFirst({ where: (g, { eq }) => eq(g.uuid, uuid) }))!;
  return (await t.deps.storage.get(row.result!.original.key))!.data;
}

const dataUriBytes = (uri: unknown) => Buffer.from(String(uri).split(',')[1]!, 'base64');

describe('fal makes runs of several pictures and the tools', () => {
  it('four pictures at 9:16: four FLUX calls of one picture each, at 9:16 pixels, each seed its own', async () => {
    const run = await createAndRun({
      mode: 'simple',
      prompt: 'a lighthouse at dawn',
      count: 4,
      aspect: '9:16',
    });
    const members = (
      await t.app.inject({
        method: 'GET',
        url: `/api/generations/?set=${run.set!.uuid}`,
        headers: owner.headers,
      })
    ).json().results as Array<{ uuid: string; status: number }>;
    expect(members).toHaveLength(4);
    const inputs = await Promise.all(members.map(async (member) => (await jobOf(member.uuid)).input));
    for (const input of inputs) {
      expect(input).toMatchObject({ num_images: 1, image_size: { width: 576, height: 1024 } });
    }
    expect(new Set(inputs.map((input) => input.seed)).size).toBe(4);
    expect(members.every((member) => member.status === 100)).toBe(true);
  }, 120_000);

  it('upscale ×4: clarity-upscaler gets the factor, and the stored picture is four times larger', async () => {
    const photo = await createUploadFor(t, owner.id, await photoOf(160, 120));
    const run = await createAndRun({ mode: 'upscale', images: [photo.uuid], settings: { scale: 4 } });
    expect((await jobOf(run.uuid)).input).toMatchObject({ upscale_factor: 4 });
    const made = await shown(run.uuid);
    expect(made.status).toBe(100);
    expect([made.result.width, made.result.height]).toEqual([640, 480]);
    expect(made.settings).toEqual({ scale: 4 });
  });

  it('restore: CodeFormer gets the photo with its fidelity and face upscaling, and the repaired picture is kept', async () => {
    const source = await photoOf(160, 120, '#8a7560');
    const photo = await createUploadFor(t, owner.id, source);
    const run = await createAndRun({ mode: 'restore', images: [photo.uuid] });
    const job = await jobOf(run.uuid);
    expect(job.model).toMatch(/codeformer/);
    expect(job.input).toMatchObject({ fidelity: 0.7, upscaling: 2, face_upscale: true });
    // The photo itself, as it was uploaded, travels inline (no public link to it).
    const sent = await sharp(dataUriBytes(job.input.image_url)).metadata();
    expect([sent.width, sent.height]).toEqual([160, 120]);
    const made = await shown(run.uuid);
    expect(made.status).toBe(100);
    expect([made.result.width, made.result.height]).toEqual([320, 240]);
  });

  it('background removed: BiRefNet’s cut-out is kept as a PNG with transparency', async () => {
    const photo = await createUploadFor(t, owner.id, await photoOf(200, 240));
    const run = await createAndRun({ mode: 'background', images: [photo.uuid] });
    expect((await jobOf(run.uuid)).input).toMatchObject({ model: 'Portrait', output_format: 'png' });
    const made = await shown(run.uuid);
    expect(made.result.content_type).toBe('image/png');
    const { data, info } = await sharp(await original(run.uuid))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(4);
    expect(data[3]).toBe(0); // the corner is transparent
    const centre = ((info.height >> 1) * info.width + (info.width >> 1)) * 4;
    expect(data[centre + 3]).toBe(255);
  });

  it('background in a colour: BiRefNet cuts out, Mirra puts the colour behind, the same for any provider', async () => {
    const photo = await createUploadFor(t, owner.id, await photoOf(200, 240));
    const run = await createAndRun({
      mode: 'background',
      images: [photo.uuid],
      settings: { background: 'colour', colour: '#ff0000' },
    });
    const made = await shown(run.uuid);
    expect(made.status).toBe(100);
    expect(made.settings).toEqual({ background: 'colour', colour: '#ff0000' });
    const { data, info } = await sharp(await original(run.uuid))
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    // The corner: red (kept as a JPEG, so within a few levels).
    expect(data[0]).toBeGreaterThan(235);
    expect(Math.max(data[1]!, data[2]!)).toBeLessThan(20);
    const centre = ((info.height >> 1) * info.width + (info.width >> 1)) * 3;
    expect(data[centre]).toBeLessThan(200); // the person (the photo's blue-grey) in front
    expect(made.result.notes.map((note: { code: string }) => note.code)).toContain('background.colour');
  });

  it('inpaint: FLUX Fill gets the photo and the painted mask, and changes only what was painted', async () => {
    const photo = await createUploadFor(t, owner.id, await photoOf(200, 200));
    // White over the right half: the part to change.
    const maskPng = await sharp({ create: { width: 200, height: 200, channels: 3, background: '#000' } })
      .composite([
        {
          input: await sharp({ create: { width: 100, height: 200, channels: 3, background: '#fff' } })
            .png()
            .toBuffer(),
          left: 100,
          top: 0,
        },
      ])
      .png()
      .toBuffer();
    const mask = await createUploadFor(t, owner.id, maskPng);
    const run = await createAndRun({
      mode: 'inpaint',
      images: [photo.uuid],
      prompt: 'a red balloon',
      settings: { mask: mask.uuid },
    });
    const input = (await jobOf(run.uuid)).input;
    expect(input.prompt).toBe('a red balloon');
    const sentMask = await sharp(dataUriBytes(input.mask_url))
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([sentMask.info.width, sentMask.info.height]).toEqual([200, 200]);
    expect(sentMask.data[100 * 200 + 150]).toBeGreaterThan(200);
    expect(sentMask.data[100 * 200 + 50]).toBeLessThan(50);
    const { data, info } = await sharp(await original(run.uuid))
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => [
      ...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3),
    ];
    expect(at(150, 100)[1]).toBeLessThan(60); // painted: magenta from the fake's fill
    expect(at(50, 100)[1]).toBeGreaterThan(100); // untouched
  });

  it('outpaint to 16:9: FLUX Fill gets the square photo on a 16:9 canvas with the new sides masked', async () => {
    const photo = await createUploadFor(t, owner.id, await photoOf(180, 180));
    const run = await createAndRun({ mode: 'outpaint', images: [photo.uuid], aspect: '16:9' });
    const input = (await jobOf(run.uuid)).input;
    const canvas = await sharp(dataUriBytes(input.image_url)).metadata();
    expect([canvas.width, canvas.height]).toEqual([320, 180]);
    const mask = await sharp(dataUriBytes(input.mask_url))
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(mask.data[90 * 320 + 10]).toBe(255); // new canvas on the left
    expect(mask.data[90 * 320 + 160]).toBe(0); // the photo itself
    expect(mask.data[90 * 320 + 310]).toBe(255); // and on the right
    const made = await shown(run.uuid);
    expect([made.result.width, made.result.height]).toEqual([320, 180]);
  });

  it('try-on: FASHN gets the person and the garment', async () => {
    const person = await createUploadFor(t, owner.id, await photoOf(120, 200, '#c0a080'));
    const garment = await createUploadFor(t, owner.id, await photoOf(100, 100, '#204080'));
    const run = await createAndRun({
      mode: 'try_on',
      images: [person.uuid],
      settings: { garment: garment.uuid },
    });
    const input = (await jobOf(run.uuid)).input;
    expect(input).toMatchObject({ category: 'auto', num_samples: 1 });
    expect((await sharp(dataUriBytes(input.garment_image)).metadata()).width).toBe(100);
    expect((await sharp(dataUriBytes(input.model_image)).metadata()).width).toBe(120);
    expect((await shown(run.uuid)).status).toBe(100);
  });

  it('a tool fal refuses ends refunded, its charge returned in one entry', async () => {
    const photo = await createUploadFor(t, owner.id, await photoOf(160, 120));
    fal.failNextSubmits({
      status: 422,
      body: { detail: [{ loc: ['body', 'image_url'], msg: 'Image too small', type: 'value_error' }] },
    });
    const run = await createAndRun({ mode: 'upscale', images: [photo.uuid] });
    const made = await shown(run.uuid);
    expect(made.status).toBeLessThan(0);
    expect(made.refunded).toBe(true);
    const refunds = await t.deps.db
      .select()
      .from(creditEntries)
      .where(and(eq(creditEntries.ref, run.uuid), eq(creditEntries.kind, 'generation_refund')));
    expect(refunds.map((entry) => entry.delta)).toEqual([3]);
  });
});
