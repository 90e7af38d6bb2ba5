import sharp from 'sharp';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReplicateFake, type ReplicateFake } from '../../fakes/replicate.fake.js';
import { grantWelcomeCredits } from '../../modules/credits/credits.usecases.js';
import { creditEntries } from '../../shared/db/schema.js';
import { bearer, createActiveUser, createUploadFor, login } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/**
 * The picture tools at Replicate, against the fake Replicate API: what each model receives (the
 * factor, the photo and the garment as uploaded files) and what comes back into Mirra's storage
 * (four times larger, a PNG with transparency, a colour composed behind the cut-out), an outage
 * made good by the next engine and a refusal refunded.
 */
let replicate: ReplicateFake;
let t: TestApp;
let owner: { id: number; headers: Record<string, string> };

beforeAll(async () => {
  replicate = await startReplicateFake({ processingSteps: 1 });
  t = await createTestApp({
    env: {
      // The bundled image classifier is tested on its own; here it would only slow the runs.
      MODERATION_IMAGES: 'false',
      // Replicate alone for most tools, so a refusal's refund shows; the upscale may fall back.
      ENGINE_UPSCALE: 'replicate,local',
      ENGINE_RESTORE: 'replicate',
      ENGINE_BACKGROUND: 'replicate',
      ENGINE_TRY_ON: 'replicate',
      REPLICATE_API_TOKEN: replicate.token,
      REPLICATE_BASE_URL: replicate.url,
      FREE_DAILY_PHOTOS: '1000',
      PRICE_UPSCALE: '3',
      PRICE_RESTORE: '4',
    },
  });
  const user = await createActiveUser(t);
  await grantWelcomeCredits(t.deps.db, user.id, 200);
  owner = { id: user.id, headers: bearer((await login(t, user.email!, user.password)).access) };
}, 120_000);
afterAll(async () => {
  await t?.close();
  await replicate?.close();
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
  return created.json() as { uuid: string };
}

async function shown(uuid: string) {
  return (
    await t.app.inject({ method: 'GET', url: `/api/generations/${uuid}/`, headers: owner.headers })
  ).json();
}

async function rowOf(uuid: string) {
  return (await t.deps.db.query.generations.findFirst({ where: (g, { eq }) => eq(g.uuid, uuid) }))!;
}

async function predictionOf(uuid: string) {
  return replicate.predictions.get((await rowOf(uuid)).providerJobId!)!;
}

async function original(uuid: string) {
  return (await t.deps.storage.get((await rowOf(uuid)).result!.original.key))!.data;
}

/** What Replicate's file store was sent for one input field (a URL of ours there). */
async function sentSize(url: unknown) {
  expect(String(url)).toMatch(new RegExp(`^${replicate.url}/files/`));
  const file = replicate.uploadedContent.get(String(url).split('/').at(-1)!)!;
  const { width, height } = await sharp(file.data).metadata();
  return [width, height];
}

describe('the picture tools at Replicate', () => {
  it('upscale ×4: Real-ESRGAN by its version gets the photo as a file and the factor, and the stored picture is four times larger', async () => {
    const photo = await createUploadFor(t, owner.id, await photoOf(160, 120));
    const run = await createAndRun({ mode: 'upscale', images: [photo.uuid], settings: { scale: 4 } });
    const prediction = await predictionOf(run.uuid);
    expect(prediction.model).toBe('nightmareai/real-esrgan');
    expect(prediction.version).toMatch(/^[0-9a-f]{64}$/);
    expect(prediction.input).toMatchObject({ scale: 4, face_enhance: false });
    expect(await sentSize(prediction.input.image)).toEqual([160, 120]);
    const made = await shown(run.uuid);
    expect(made.status, made.error_detail).toBe(100);
    expect(made.result.engine).toBe('replicate');
    expect([made.result.width, made.result.height]).toEqual([640, 480]);
    // The photo left Replicate's file store once the prediction ended.
    expect(replicate.deletedFiles).toContain(String(prediction.input.image).split('/').at(-1));
  });

  it('restore: CodeFormer gets the photo with its fidelity and face upsampling, and the repaired picture is kept at twice the size', async () => {
    const photo = await createUploadFor(t, owner.id, await photoOf(150, 100, '#8a7560'));
    const run = await createAndRun({ mode: 'restore', images: [photo.uuid] });
    const prediction = await predictionOf(run.uuid);
    expect(prediction.model).toBe('sczhou/codeformer');
    expect(prediction.input).toMatchObject({ codeformer_fidelity: 0.7, face_upsample: true, upscale: 2 });
    expect(await sentSize(prediction.input.image)).toEqual([150, 100]);
    const made = await shown(run.uuid);
    expect(made.status, made.error_detail).toBe(100);
    expect([made.result.width, made.result.height]).toEqual([300, 200]);
  });

  it('background removed: Bria’s official remover, run by its name, and its cut-out kept as a PNG with transparency', async () => {
    const photo = await createUploadFor(t, owner.id, await photoOf(200, 240));
    const run = await createAndRun({ mode: 'background', images: [photo.uuid] });
    const prediction = await predictionOf(run.uuid);
    expect([prediction.model, prediction.version]).toEqual(['bria/remove-background', 'hidden']);
    expect(await sentSize(prediction.input.image)).toEqual([200, 240]);
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

  it('background in a colour: Bria cuts out and Mirra puts the colour behind, as for any provider', async () => {
    const photo = await createUploadFor(t, owner.id, await photoOf(200, 240));
    const run = await createAndRun({
      mode: 'background',
      images: [photo.uuid],
      settings: { background: 'colour', colour: '#ff0000' },
    });
    const made = await shown(run.uuid);
    expect(made.status, made.error_detail).toBe(100);
    expect((await predictionOf(run.uuid)).model).toBe('bria/remove-background');
    const { data, info } = await sharp(await original(run.uuid))
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(235); // the corner: red
    expect(Math.max(data[1]!, data[2]!)).toBeLessThan(20);
    const centre = ((info.height >> 1) * info.width + (info.width >> 1)) * 3;
    expect(data[centre]).toBeLessThan(200); // the person (the photo's blue-grey) in front
    expect(made.result.notes.map((note: { code: string }) => note.code)).toContain('background.colour');
  });

  it('try-on: IDM-VTON gets the person and the garment as two uploaded files, and wears the garment', async () => {
    const person = await createUploadFor(t, owner.id, await photoOf(120, 180, '#c0a080'));
    const garment = await createUploadFor(t, owner.id, await photoOf(100, 100, '#204080'));
    const run = await createAndRun({
      mode: 'try_on',
      images: [person.uuid],
      settings: { garment: garment.uuid },
    });
    const prediction = await predictionOf(run.uuid);
    expect(prediction.model).toBe('cuuupid/idm-vton');
    expect(prediction.input).toMatchObject({ category: 'upper_body', crop: true });
    expect(typeof prediction.input.garment_des).toBe('string');
    expect(await sentSize(prediction.input.human_img)).toEqual([120, 180]);
    expect(await sentSize(prediction.input.garm_img)).toEqual([100, 100]);
    const made = await shown(run.uuid);
    expect(made.status, made.error_detail).toBe(100);
    const { data, info } = await sharp(await original(run.uuid))
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => [
      ...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3),
    ];
    expect(at(60, 150)[2]).toBeGreaterThan(at(60, 150)[0]!); // the blue garment over the lower part
    expect(at(60, 20)[0]).toBeGreaterThan(at(60, 20)[2]!); // the person's own colour above it
    for (const field of ['human_img', 'garm_img'])
      expect(replicate.deletedFiles).toContain(String(prediction.input[field]).split('/').at(-1));
  });

  it('an outage before Replicate accepted the upscale moves it to the local engine, charged once', async () => {
    const photo = await createUploadFor(t, owner.id, await photoOf(64, 48));
    const before = replicate.creates;
    replicate.failNextCreates({ status: 503 });
    const run = await createAndRun({ mode: 'upscale', images: [photo.uuid], settings: { scale: 2 } });
    const made = await shown(run.uuid);
    expect(made.status, made.error_detail).toBe(100);
    expect(made.result.engine).toBe('local');
    expect([made.result.width, made.result.height]).toEqual([128, 96]);
    expect(replicate.creates).toBe(before);
    const entries = await t.deps.db.select().from(creditEntries).where(eq(creditEntries.ref, run.uuid));
    expect(entries.map((entry) => entry.delta)).toEqual([-3]);
  }, 60_000);

  it('a restore Replicate refuses ends refunded, its charge returned in one entry', async () => {
    const photo = await createUploadFor(t, owner.id, await photoOf(160, 120));
    replicate.failNextCreates({ status: 422 });
    const run = await createAndRun({ mode: 'restore', images: [photo.uuid] });
    const made = await shown(run.uuid);
    expect(made.status).toBeLessThan(0);
    expect(made.refunded).toBe(true);
    const refunds = await t.deps.db
      .select()
      .from(creditEntries)
      .where(and(eq(creditEntries.ref, run.uuid), eq(creditEntries.kind, 'generation_refund')));
    expect(refunds.map((entry) => entry.delta)).toEqual([4]);
  });
});
