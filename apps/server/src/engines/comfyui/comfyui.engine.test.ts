import { GenerationStatus } from '@mirra/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startComfyUiFake, type ComfyFake } from '../../fakes/comfyui.fake.js';
import { runGeneration } from '../../modules/generations/generation-run.usecases.js';
import { createUploadFor } from '../../test/factories.js';
import { generationTestHelpers } from '../../test/generations.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/**
 * The ComfyUI engine against two fake ComfyUI servers (a small self-hosted fleet), through the whole
 * generation: the shipped workflow filled in and queued round-robin, polled to its end, stored.
 */
let a: ComfyFake;
let b: ComfyFake;
let t: TestApp;
beforeAll(async () => {
  [a, b] = await Promise.all([startComfyUiFake(), startComfyUiFake()]);
  t = await createTestApp({
    env: {
      ENGINE_SIMPLE: 'comfyui,local',
      ENGINE_EDITING: 'comfyui',
      ENGINE_STYLING: 'comfyui',
      COMFYUI_URLS: `${a.url}, ${b.url}/`,
      PRICE_SIMPLE: '2',
      PRICE_EDITING: '3',
      PRICE_STYLING: '3',
      FREE_DAILY_PHOTOS: '1000',
      RATE_LIMIT_LOGIN_PER_IP: '1000',
      // What is checked here is how work is spread over the servers; the bundled image classifier
      // (tested on its own) now and then refuses one of the fake's abstract drawings.
      MODERATION_IMAGES: 'false',
    },
  });
});
afterAll(async () => {
  await t?.close();
  await Promise.all([a?.close(), b?.close()]);
});

const { signedInUser, create, rowOf, shown, entriesOf, runJobsUntilEnded } = generationTestHelpers(() => t);
const promptOf = async (uuid: string) => {
  const [promptId, , server] = (await rowOf(uuid)).providerJobId!.split(' ');
  return { server, prompt: (server === a.url ? a : b).prompts.get(promptId!)! };
};
describe('the ComfyUI engine', () => {
  it('fills the shipped workflow (prompt, seed, size) and spreads generations over the servers round-robin', async () => {
    const { user, headers } = await signedInUser();
    const first = await create(headers, { mode: 'simple', prompt: 'a red fox in the snow', seed: 11 });
    const second = await create(headers, { mode: 'simple', prompt: 'a blue boat', seed: 12 });
    await t.runJobs();
    for (const { uuid } of [first, second]) {
      const done = await shown(uuid, headers);
      expect(done.status, done.error_detail).toBe(GenerationStatus.COMPLETED);
      expect(done.result.engine).toBe('comfyui');
      expect(done.result.notes).toContainEqual(
        expect.objectContaining({
          code: 'provider.made_by',
          params: { engine: 'comfyui', model: 'comfyui/simple' },
        }),
      );
    }
    const [one, two] = [await promptOf(first.uuid), await promptOf(second.uuid)];
    expect(new Set([one.server, two.server])).toEqual(new Set([a.url, b.url]));
    const nodes = Object.values(one.prompt.prompt);
    expect(nodes.find((n) => n.class_type === 'KSampler')!.inputs.seed).toBe(11);
    expect(nodes.find((n) => n.class_type === 'CLIPTextEncode')!.inputs.text).toBe('a red fox in the snow');
    expect(nodes.find((n) => n.class_type === 'EmptyLatentImage')!.inputs).toMatchObject({
      width: 1024,
      height: 768,
    });
    // Queued under the client id of the prompt's own socket, stored with the job.
    expect(one.prompt.clientId).toBe((await rowOf(first.uuid)).providerJobId!.split(' ')[3]);
    expect(one.prompt.clientId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await entriesOf(user.id)).toEqual([-2, -2]);
  });

  it('uploads the photo for editing and styling and names it in LoadImage', async () => {
    const { user, headers } = await signedInUser();
    const upload = await createUploadFor(t, user.id);
    const edit = await create(headers, {
      mode: 'editing',
      prompt: 'make the sky pink',
      images: [upload.uuid],
    });
    const style = await create(headers, { mode: 'styling', prompt: '', style: 'oil', images: [upload.uuid] });
    await t.runJobs();
    for (const { uuid } of [edit, style]) {
      expect((await shown(uuid, headers)).status).toBe(GenerationStatus.COMPLETED);
      const { server, prompt } = await promptOf(uuid);
      const loaded = Object.values(prompt.prompt).find((n) => n.class_type === 'LoadImage')!.inputs
        .image as string;
      expect((server === a.url ? a : b).inputs.has(loaded)).toBe(true);
    }
    const { prompt } = await promptOf(style.uuid);
    expect(
      String(Object.values(prompt.prompt).find((n) => n.class_type === 'CLIPTextEncode')!.inputs.text),
    ).toMatch(/oil painting/);
  });

  it('skips a server that is down; with every server down the next engine (local) makes it', async () => {
    const { headers } = await signedInUser();
    a.down();
    try {
      const one = await create(headers, { mode: 'simple', prompt: 'a kite' });
      const two = await create(headers, { mode: 'simple', prompt: 'a kite' });
      await runJobsUntilEnded(one.uuid);
      await runJobsUntilEnded(two.uuid);
      for (const { uuid } of [one, two]) {
        expect((await shown(uuid, headers)).result.engine).toBe('comfyui');
        expect((await promptOf(uuid)).server).toBe(b.url);
      }
      b.down();
      const none = await create(headers, { mode: 'simple', prompt: 'a kite' });
      await runJobsUntilEnded(none.uuid);
      const fellBack = await shown(none.uuid, headers);
      expect(fellBack.result.engine).toBe('local');
      expect(fellBack.result.notes).toContainEqual(
        expect.objectContaining({
          code: 'provider.fallback',
          params: { engine: 'local', unavailable: 'comfyui' },
        }),
      );
    } finally {
      a.up();
      b.up();
    }
  });

  it('a workflow that fails on the server ends the generation, refunded once', async () => {
    const { user, headers } = await signedInUser();
    a.failNextExecution('CUDA out of memory');
    b.failNextExecution('CUDA out of memory');
    const { uuid } = await create(headers, { mode: 'simple', prompt: 'a tower' });
    await t.runJobs();
    expect(await rowOf(uuid)).toMatchObject({
      status: GenerationStatus.ERROR,
      errorDetail: 'CUDA out of memory',
    });
    expect(await entriesOf(user.id)).toEqual([-2, 2]);
    a.failNextExecution('');
    b.failNextExecution('');
  });

  it('a worker stopped after queueing resumes the prompt by its stored id, never queueing it twice', async () => {
    const { user, headers } = await signedInUser();
    const { uuid } = await create(headers, { mode: 'simple', prompt: 'a harbour' });
    const before = a.queued + b.queued;
    a.failNextHistoryReads(1);
    b.failNextHistoryReads(1);
    await expect(
      runGeneration(t.deps, (await rowOf(uuid)).id, { attempt: 1, maxAttempts: 3 }),
    ).rejects.toThrow();
    const stopped = await rowOf(uuid);
    expect([stopped.status, stopped.provider]).toEqual([GenerationStatus.IN_QUEUE, 'comfyui']);
    a.failNextHistoryReads(0);
    b.failNextHistoryReads(0);
    await runGeneration(t.deps, stopped.id, { attempt: 2, maxAttempts: 3 });
    expect((await rowOf(uuid)).status).toBe(GenerationStatus.COMPLETED);
    expect(a.queued + b.queued).toBe(before + 1);
    expect(await entriesOf(user.id)).toEqual([-2]);
  });
});
