import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { CAMERA_MOVE_WORDS, GenerationStatus } from '@mirra/contracts';
import { loadTestFaces } from '@mirra/imaging/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startComfyUiFake, type ComfyFake } from '../../fakes/comfyui.fake.js';
import { runGeneration } from '../../modules/generations/generation-run.usecases.js';
import { models } from '../../shared/db/schema.js';
import { createUploadFor } from '../../test/factories.js';
import { generationTestHelpers } from '../../test/generations.js';
import { createTrainedModel } from '../../test/models.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { createComfyUiEngine, loadWorkflows } from './comfyui.engine.js';

/**
 * The ComfyUI engine's live progress over ComfyUI's WebSocket (and polling when the socket drops),
 * and the workflows beyond pictures from a text or a photo: face photos with the digital model's
 * LoRA (put in the LoRA folder the servers share) or with InstantID, and image-to-video, each
 * through the whole generation into Mirra's storage.
 */
let comfy: ComfyFake;
let t: TestApp;
let lorasDir: string;
let loraHost: Server;
let loraUrl: string;
let loraDownloads = 0;
const loraBytes = randomBytes(2048);

beforeAll(async () => {
  lorasDir = await mkdtemp(path.join(tmpdir(), 'mirra-comfy-loras-'));
  loraHost = createServer((request, response) => {
    loraDownloads++;
    response.writeHead(200, { 'content-type': 'application/octet-stream' });
    response.end(loraBytes);
  });
  await new Promise<void>((resolve) => loraHost.listen(0, '127.0.0.1', resolve));
  loraUrl = `http://127.0.0.1:${(loraHost.address() as AddressInfo).port}/files/lora.safetensors`;
  comfy = await startComfyUiFake({ steps: 4, stepMs: 10, lorasDir });
  t = await createTestApp({
    env: {
      ENGINE_SIMPLE: 'comfyui',
      ENGINE_FACE_SWAP: 'comfyui',
      ENGINE_VIDEO: 'comfyui',
      COMFYUI_URLS: comfy.url,
      COMFYUI_LORAS_DIR: lorasDir,
      PRICE_SIMPLE: '2',
      PRICE_FACE_SWAP: '2',
      PRICE_VIDEO_PER_SECOND: '1',
      PRICE_MODEL_TRAINING: '20',
      FREE_DAILY_PHOTOS: '1000',
      RATE_LIMIT_LOGIN_PER_IP: '1000',
      // What is checked is the workflows and the progress; the bundled image classifier (tested on
      // its own) now and then refuses one of the fake's abstract drawings.
      MODERATION_IMAGES: 'false',
      // The fake's LoRA workflow draws the scene without the person (it cannot know the LoRA's
      // face): the likeness check (tested in fal.likeness.test.ts) would refund it.
      LIKENESS_THRESHOLD: '0',
    },
  });
}, 240_000);
afterAll(async () => {
  await t?.close();
  await comfy?.close();
  await new Promise((resolve) => loraHost?.close(resolve));
  if (lorasDir) await rm(lorasDir, { recursive: true, force: true });
});

const { signedInUser, create, rowOf, shown, entriesOf, runJobsUntilEnded } = generationTestHelpers(() => t, {
  credits: 100,
});
const jobOf = async (uuid: string) => {
  const [promptId, workflow, server, clientId] = (await rowOf(uuid)).providerJobId!.split(' ');
  return { promptId: promptId!, workflow, server, clientId, prompt: comfy.prompts.get(promptId!)! };
};
const nodesOf = (prompt: ComfyFake['prompts'] extends Map<string, infer P> ? P : never) =>
  Object.values(prompt.prompt);

async function waitFor(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('waited in vain');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('progress over the WebSocket', () => {
  it('the sampler’s steps reach the generation’s progress as they happen, with no polling meanwhile', async () => {
    const { headers } = await signedInUser();
    const { uuid } = await create(headers, { mode: 'simple', prompt: 'a lighthouse at night' });
    const held = comfy.holdAtProgress(3);
    const run = runGeneration(t.deps, (await rowOf(uuid)).id, { attempt: 1, maxAttempts: 3 });
    await held;
    // Step 3 of 4: three quarters of the way from the start (5) to the most shown before the end (95).
    await waitFor(async () => (await rowOf(uuid)).progress === 73);
    const reads = comfy.historyReads;
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(comfy.historyReads).toBe(reads);
    expect((await rowOf(uuid)).status).toBe(GenerationStatus.IN_PROGRESS);

    const { promptId, clientId } = await jobOf(uuid);
    const progress = comfy.sent.filter((m) => m.type === 'progress' && m.data.prompt_id === promptId);
    expect(progress.map((m) => [m.clientId, m.data.value])).toEqual([
      [clientId, 1],
      [clientId, 2],
      [clientId, 3],
    ]);
    comfy.release();
    await run;
    const done = await shown(uuid, headers);
    expect(done.status, done.error_detail).toBe(GenerationStatus.COMPLETED);
    expect(done.result.engine).toBe('comfyui');
  });

  it('a socket dropped mid-run: the history is polled until the prompt ends, and the result is stored', async () => {
    const { user, headers } = await signedInUser();
    const { uuid } = await create(headers, { mode: 'simple', prompt: 'a windmill' });
    const held = comfy.holdAtProgress(1);
    const run = runGeneration(t.deps, (await rowOf(uuid)).id, { attempt: 1, maxAttempts: 3 });
    await held;
    const reads = comfy.historyReads;
    comfy.dropSockets();
    comfy.release();
    await run;
    const done = await shown(uuid, headers);
    expect(done.status, done.error_detail).toBe(GenerationStatus.COMPLETED);
    expect(comfy.historyReads).toBeGreaterThan(reads);
    // The end was never heard over the socket: the history said it.
    const { promptId } = await jobOf(uuid);
    expect(comfy.sent.filter((m) => m.data.prompt_id === promptId).map((m) => m.type)).toContain(
      'execution_success',
    );
    expect(await entriesOf(user.id)).toEqual([-2]);
  });

  it('a restarted worker follows a running prompt again over a socket with the stored client id', async () => {
    const { headers } = await signedInUser();
    const { uuid } = await create(headers, { mode: 'simple', prompt: 'a paper boat' });
    const held = comfy.holdAtProgress(1);
    const run = runGeneration(t.deps, (await rowOf(uuid)).id, { attempt: 1, maxAttempts: 3 });
    await held;
    const job = (await rowOf(uuid)).providerJobId!;
    // Another process (the worker after a restart) has only the stored job.
    const restarted = createComfyUiEngine({ servers: [comfy.url], workflowsDir: null }, {});
    const progress: number[] = [];
    const context = {
      onProgress: (p: number) => void progress.push(p),
      signal: new AbortController().signal,
    };
    const polled = restarted.poll!(job, context);
    setTimeout(() => comfy.release(), 300);
    let result = await polled;
    while (result.kind === 'running') result = await restarted.poll!(job, context);
    expect(result.kind).toBe('done');
    // Steps 2 and 3 of 4 were heard by the new socket, live.
    expect(progress).toEqual(expect.arrayContaining([50, 73]));
    await run;
    expect((await shown(uuid, headers)).status).toBe(GenerationStatus.COMPLETED);
  });

  it('execution_error over the socket: failed with the exception’s message, refunded once', async () => {
    const { user, headers } = await signedInUser();
    comfy.failNextExecution('CUDA out of memory');
    const { uuid } = await create(headers, { mode: 'simple', prompt: 'a castle' });
    await runJobsUntilEnded(uuid);
    expect(await rowOf(uuid)).toMatchObject({
      status: GenerationStatus.ERROR,
      errorDetail: 'CUDA out of memory',
    });
    const { promptId, clientId } = await jobOf(uuid);
    expect(comfy.sent).toContainEqual(
      expect.objectContaining({
        clientId,
        type: 'execution_error',
        data: expect.objectContaining({ prompt_id: promptId }),
      }),
    );
    await t.runJobs();
    expect(await entriesOf(user.id)).toEqual([-2, 2]);
  });
});

describe('face photos and video', () => {
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  let modelUuid: string;
  beforeAll(async () => {
    owner = await signedInUser();
    modelUuid = await createTrainedModel(t, owner.headers);
  }, 240_000);

  it('a face photo with the model’s LoRA: put once in the shared LoRA folder, loaded by name, prompted with its trigger word', async () => {
    await t.deps.db
      .update(models)
      .set({ providerLoras: { fal: { url: loraUrl, triggerWord: 'mirra1a2b3c4d' } } })
      .where(eq(models.uuid, modelUuid));
    for (const prompt of ['on a mountain top at sunrise', 'in a library']) {
      const { uuid } = await create(owner.headers, { mode: 'face_swap', model_uuid: modelUuid, prompt });
      await runJobsUntilEnded(uuid);
      const done = await shown(uuid, owner.headers);
      expect(done.status, done.error_detail).toBe(GenerationStatus.COMPLETED);
      expect(done.result.notes).toContainEqual(
        expect.objectContaining({ params: { engine: 'comfyui', model: 'comfyui/face_photo' } }),
      );
      const nodes = nodesOf((await jobOf(uuid)).prompt);
      expect(nodes.find((n) => n.class_type === 'LoraLoaderModelOnly')!.inputs.lora_name).toBe(
        `mirra-${modelUuid}.safetensors`,
      );
      expect(nodes.find((n) => n.class_type === 'CLIPTextEncode')!.inputs.text).toBe(
        `mirra1a2b3c4d ${prompt}`,
      );
    }
    expect(await readFile(path.join(lorasDir, `mirra-${modelUuid}.safetensors`))).toEqual(loraBytes);
    expect(loraDownloads).toBe(1);
  });

  it('a face photo without a reachable LoRA uses InstantID with the model’s best face photo', async () => {
    await t.deps.db.update(models).set({ providerLoras: null }).where(eq(models.uuid, modelUuid));
    const { uuid } = await create(owner.headers, {
      mode: 'face_swap',
      model_uuid: modelUuid,
      prompt: 'as an astronaut on the moon',
    });
    await runJobsUntilEnded(uuid);
    const done = await shown(uuid, owner.headers);
    expect(done.status, done.error_detail).toBe(GenerationStatus.COMPLETED);
    expect(done.result.notes).toContainEqual(
      expect.objectContaining({ params: { engine: 'comfyui', model: 'comfyui/face_photo_instantid' } }),
    );
    const nodes = nodesOf((await jobOf(uuid)).prompt);
    expect(nodes.some((n) => n.class_type === 'ApplyInstantID')).toBe(true);
    const face = String(nodes.find((n) => n.class_type === 'LoadImage')!.inputs.image);
    expect(comfy.inputs.has(face)).toBe(true);
  });

  it('a model whose only LoRA is Replicate’s (a model version, no file) gets InstantID, nothing fetched', async () => {
    // A server whose LoRA folder does not have this model's file yet.
    await rm(path.join(lorasDir, `mirra-${modelUuid}.safetensors`), { force: true });
    const downloads = loraDownloads;
    await t.deps.db
      .update(models)
      .set({
        providerLoras: {
          replicate: { url: 'mirra-owner/mirra-model:0123456789abcdef', triggerWord: 'mirra1a2b3c4d' },
        },
      })
      .where(eq(models.uuid, modelUuid));
    const { uuid } = await create(owner.headers, {
      mode: 'face_swap',
      model_uuid: modelUuid,
      prompt: 'reading on a park bench',
    });
    await runJobsUntilEnded(uuid);
    const done = await shown(uuid, owner.headers);
    expect(done.status, done.error_detail).toBe(GenerationStatus.COMPLETED);
    expect(done.result.notes).toContainEqual(
      expect.objectContaining({ params: { engine: 'comfyui', model: 'comfyui/face_photo_instantid' } }),
    );
    const nodes = nodesOf((await jobOf(uuid)).prompt);
    expect(nodes.some((n) => n.class_type === 'ApplyInstantID')).toBe(true);
    expect(nodes.some((n) => n.class_type === 'LoraLoaderModelOnly')).toBe(false);
    expect(loraDownloads).toBe(downloads);
  });

  it('a face swap onto a photo runs the ReActor workflow with the photo and the model’s face', async () => {
    const faces = await loadTestFaces();
    const target = await createUploadFor(t, owner.user.id, faces.graceHopper);
    const { uuid } = await create(owner.headers, {
      mode: 'face_swap',
      model_uuid: modelUuid,
      images: [target.uuid],
    });
    await runJobsUntilEnded(uuid);
    expect((await shown(uuid, owner.headers)).status).toBe(GenerationStatus.COMPLETED);
    const nodes = nodesOf((await jobOf(uuid)).prompt);
    expect(nodes.filter((n) => n.class_type === 'LoadImage')).toHaveLength(2);
    expect(nodes.some((n) => n.class_type === 'ReActorFaceSwap')).toBe(true);
  });

  it('animates a photo: the workflow’s MP4 from /view stored as a video with a poster', async () => {
    const faces = await loadTestFaces();
    const photo = await createUploadFor(t, owner.user.id, faces.astronaut);
    const { uuid } = await create(owner.headers, {
      mode: 'video',
      images: [photo.uuid],
      prompt: 'she smiles and waves',
      duration: 3,
      aspect: '16:9',
    });
    await runJobsUntilEnded(uuid);
    const done = await shown(uuid, owner.headers);
    expect(done.status, done.error_detail).toBe(GenerationStatus.COMPLETED);
    expect(done.result.content_type).toBe('video/mp4');
    expect(done.result.variants.length).toBeGreaterThan(0);
    const { prompt, workflow } = await jobOf(uuid);
    expect(workflow).toBe('video');
    const nodes = nodesOf(prompt);
    expect(nodes.find((n) => n.class_type === 'LTXVImgToVideo')!.inputs).toMatchObject({
      width: 896,
      height: 512,
      length: 73,
    });
    expect(nodes.find((n) => n.class_type === 'CreateVideo')!.inputs.fps).toBe(24);
    const mp4 = await t.fetchMedia(done.result.url);
    expect(mp4.statusCode).toBe(200);
    expect(mp4.rawPayload.subarray(4, 8).toString()).toBe('ftyp');
  });

  it('a video from a description alone runs the text-to-video workflow in the asked frame shape', async () => {
    const { uuid } = await create(owner.headers, {
      mode: 'video',
      prompt: 'waves rolling onto a beach',
      duration: 3,
      aspect: '9:16',
      settings: { camera: 'pan_left' },
    });
    await runJobsUntilEnded(uuid);
    const done = await shown(uuid, owner.headers);
    expect(done.status, done.error_detail).toBe(GenerationStatus.COMPLETED);
    expect(done.result.content_type).toBe('video/mp4');
    const { prompt, workflow } = await jobOf(uuid);
    expect(workflow).toBe('video_from_text');
    const nodes = nodesOf(prompt);
    expect(nodes.find((n) => n.class_type === 'EmptyLTXVLatentVideo')!.inputs).toMatchObject({
      width: 512,
      height: 896,
      length: 73,
    });
    // The workflow has no camera input: the chosen move is said after the description.
    expect(nodes.find((n) => n.class_type === 'CLIPTextEncode')!.inputs.text).toBe(
      `waves rolling onto a beach. ${CAMERA_MOVE_WORDS.pan_left}`,
    );
  });
});

describe('the workflow files, checked at start', () => {
  it('a placeholder missing or misspelt stops the start, naming each problem', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mirra-comfy-workflows-'));
    try {
      await writeFile(
        path.join(dir, 'simple.json'),
        JSON.stringify({ '1': { class_type: 'CLIPTextEncode', inputs: { text: '{{promt}}' } } }),
      );
      await writeFile(path.join(dir, 'video.json'), '{ not json');
      const start = () => createComfyUiEngine({ servers: [comfy.url], workflowsDir: dir }, {});
      expect(start).toThrow(/simple\.json has no \{\{prompt\}\} placeholder/);
      expect(start).toThrow(/simple\.json uses \{\{promt\}\}, which is never filled/);
      expect(start).toThrow(/video\.json is not valid JSON/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('the shipped workflows all pass; a folder without a mode’s file leaves that mode to the next engine', async () => {
    const shipped = loadWorkflows(path.resolve(import.meta.dirname, '../../../comfyui-workflows'));
    expect([...shipped.keys()].sort()).toEqual(
      [
        'editing',
        'face_photo',
        'face_photo_instantid',
        'face_swap',
        'simple',
        'styling',
        'video',
        'video_from_text',
      ].sort(),
    );
    const dir = await mkdtemp(path.join(tmpdir(), 'mirra-comfy-workflows-'));
    try {
      await writeFile(
        path.join(dir, 'simple.json'),
        await readFile(path.resolve(import.meta.dirname, '../../../comfyui-workflows/simple.json')),
      );
      const engine = createComfyUiEngine({ servers: [comfy.url], workflowsDir: dir }, {});
      expect(engine.supports('simple')).toBe(true);
      expect(engine.supports('video')).toBe(false);
      expect(engine.supports('face_swap')).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
