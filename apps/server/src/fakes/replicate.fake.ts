import sharp from 'sharp';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signReplicateWebhook } from '../engines/replicate/replicate.models.js';
import { drawScene, encodeStillVideo, insetFace, recolour } from './fake-media.js';
import { json, readBody } from './provider-fake-http.js';
import { unzipStored } from '../engines/zip.js';

/**
 * A local stand-in for Replicate's HTTP API (`/v1`), following its contracts:
 * - `Authorization: Bearer <token>`, else 401 problem details;
 * - `GET /v1/predictions` (a page of the account's predictions, what a readiness probe asks);
 * - `POST /v1/models/{owner}/{name}/predictions` (official models) and `POST /v1/predictions`
 *   (`version`): 201 with the prediction `starting`; an unknown model or version is 422 "Invalid
 *   version or not permitted", a missing input 422 "Input validation failed" with `invalid_fields`;
 *   `Prefer: wait` holds the answer until the prediction is done;
 * - `GET /v1/predictions/{id}`: each read moves it a step, `starting` → `processing` (tqdm lines in
 *   `logs`) → `succeeded` with `output` (a URL, or a list of one for FLUX schnell), or `failed`
 *   with `error` "NSFW content detected…" when the prompt has REPLICATE_REFUSED_WORD;
 *   `POST /v1/predictions/{id}/cancel`;
 * - `POST /v1/files` (multipart `content`): Replicate's file store, where inputs are uploaded;
 * - `GET /v1/webhooks/default/secret` → `{key: "whsec_…"}`; each finished prediction with a
 *   `webhook` gets the prediction POSTed, signed the Standard Webhooks way (`webhook-id`,
 *   `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256>`);
 * - models: `GET /v1/models/{owner}/{name}` (404 until made; the trainer's has `latest_version`),
 *   `POST /v1/models` (`owner`, `name`, `visibility`, `hardware` required; 409 when it exists);
 * - trainings: `POST /v1/models/{owner}/{name}/versions/{version}/trainings` with a `destination`
 *   that must exist (404 otherwise) and `input.input_images` (a ZIP URL): 201 `starting`; each
 *   `GET /v1/trainings/{id}` moves it a step, `starting` → `processing` → `succeeded` with
 *   `output: {version: "{destination}:{hash}", weights}` (a new version of the destination that
 *   predictions then run, drawing the trained face), or `failed`/`canceled` when scripted
 *   (`failNextTrainings`); `POST /v1/trainings/{id}/cancel`; webhooks signed as for predictions;
 * - `DELETE /v1/files/{id}`: 204 (404 once gone); each ask recorded, failures scriptable;
 * - 429 `{"detail": "Request was throttled…"}` with `Retry-After` when scripted
 *   (`failNextCreates({status: 429, retryAfter: 1})`), 5xx or a dropped connection likewise.
 * - the tools answer one URL each: Real-ESRGAN the photo enlarged by `scale`, CodeFormer by
 *   `upscale`, Bria's remover a PNG with transparency around the middle, IDM-VTON the person with
 *   the garment over the lower two thirds (a JPEG); each refuses to run without its own inputs.
 * Results are real pictures and H.264 MP4s made by the local imaging code.
 */
export const REPLICATE_REFUSED_WORD = 'forbidden-by-replicate';

export type ReplicateFakeFailure = { status: number; retryAfter?: number } | { status: 'disconnect' };

export interface ReplicateFakePrediction {
  id: string;
  model: string;
  version: string;
  input: Record<string, unknown>;
  status: 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled';
  output: unknown;
  error: string | null;
  logs: string;
  webhook: string | null;
  reads: number;
}

export interface ReplicateFakeTraining {
  id: string;
  model: string;
  version: string;
  destination: string;
  input: Record<string, unknown>;
  status: 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled';
  output: { version: string; weights: string } | null;
  error: string | null;
  logs: string;
  webhook: string | null;
  reads: number;
}

/** How a scripted training ends instead of succeeding. */
export type ReplicateFakeTrainingEnd = { status: 'failed'; error: string } | { status: 'canceled' };

export interface ReplicateSignedWebhook {
  url: string | null;
  headers: Record<string, string>;
  body: string;
}

export interface ReplicateFake {
  url: string;
  token: string;
  secret: string;
  readonly creates: number;
  predictions: Map<string, ReplicateFakePrediction>;
  trainings: Map<string, ReplicateFakeTraining>;
  /** Models made with `POST /v1/models`, by `owner/name`. */
  models: Map<string, { owner: string; name: string; visibility: string; hardware: string }>;
  /** Ids of the files uploaded with `POST /v1/files`, in order. */
  uploadedFiles: string[];
  /** What each uploaded file held, by id, kept after it is deleted (what a model was sent). */
  uploadedContent: Map<string, { data: Buffer; contentType: string }>;
  /** Ids of the files deleted with `DELETE /v1/files/{id}`. */
  deletedFiles: string[];
  /** Ids named by every `DELETE /v1/files/{id}` asked, answered or not (a second ask shows here). */
  deleteRequests: string[];
  /** The next file deletions fail this way (in order). */
  failNextDeletes(...failures: ReplicateFakeFailure[]): void;
  readonly trainingCreates: number;
  webhooks: ReplicateSignedWebhook[];
  /** The next trainings end this way (in order) instead of succeeding. */
  failNextTrainings(...ends: ReplicateFakeTrainingEnd[]): void;
  /** Runs the training to its end now and returns its signed webhook. */
  finishTraining(id: string): Promise<ReplicateSignedWebhook>;
  failNextCreates(...failures: ReplicateFakeFailure[]): void;
  failNextReads(...failures: ReplicateFakeFailure[]): void;
  /**
   * The next prediction's output is gone by the time it is fetched (404), as Replicate's files
   * are after an hour: the prediction succeeded but its result can no longer be read.
   */
  expireNextOutput(): void;
  /** Runs the prediction to its end now and returns its signed webhook. */
  finish(id: string): Promise<ReplicateSignedWebhook>;
  /** Signs any body as Replicate would (forged or replayed deliveries in tests). */
  signWebhook(
    body: string,
    options?: { id?: string; timestamp?: number; secret?: string },
  ): ReplicateSignedWebhook;
  close(): Promise<void>;
}

/** The models this fake runs: official ones by name, community ones by `owner/name:version`. */
const KNOWN_MODELS = [
  'black-forest-labs/flux-schnell',
  'black-forest-labs/flux-dev',
  'black-forest-labs/flux-kontext-pro',
  'black-forest-labs/flux-fill-pro',
  'kwaivgi/kling-v2.1',
  'bria/remove-background',
];
const KNOWN_VERSIONS: Record<string, string> = {
  d1d6ea8c8be89d664a07a457526f7128109dee7030fdac424788d762c71ed111: 'cdingram/face-swap',
  b3ef194191d13140337468c916c2c5b96dd0cb06dffc032a022a31807f6a5ea8: 'nightmareai/real-esrgan',
  cc4956dd26fa5a7185d5660cc9100fab1b8070a1d1654a8bb5eb6d443b020bb2: 'sczhou/codeformer',
  '0513734a452173b8173e907e3a59d19a36266e55b48528559432bd21c7d7e985': 'cuuupid/idm-vton',
};
/** The inputs each model refuses to run without (422 "Input validation failed"); others need `prompt`. */
const REQUIRED_INPUTS: Record<string, string[]> = {
  'cdingram/face-swap': ['input_image', 'swap_image'],
  'kwaivgi/kling-v2.1': ['prompt', 'start_image'],
  'nightmareai/real-esrgan': ['image'],
  'sczhou/codeformer': ['image'],
  'bria/remove-background': ['image'],
  'cuuupid/idm-vton': ['human_img', 'garm_img', 'garment_des'],
};
/** The LoRA trainer this fake runs, and its latest version. */
export const REPLICATE_FAKE_TRAINER = 'ostris/flux-dev-lora-trainer';
export const REPLICATE_FAKE_TRAINER_VERSION =
  '26dce37af90b9d997eeb970d92e47de3064d46c300504ae376c75bef6a9022d2';

export async function startReplicateFake(
  options: {
    host?: string;
    port?: number;
    token?: string;
    /** The account's webhook signing secret; kept between runs by `npm run fakes`. */
    webhookSecret?: string;
    processingSteps?: number;
    deliverWebhooks?: boolean;
  } = {},
): Promise<ReplicateFake> {
  const token = options.token ?? 'r8_fake_token';
  const secret = options.webhookSecret ?? `whsec_${randomBytes(24).toString('base64')}`;
  const processingSteps = options.processingSteps ?? 1;
  const predictions = new Map<string, ReplicateFakePrediction>();
  const files = new Map<string, { data: Buffer; contentType: string }>();
  const createFailures: ReplicateFakeFailure[] = [];
  const readFailures: ReplicateFakeFailure[] = [];
  const webhooks: ReplicateSignedWebhook[] = [];
  const trainings = new Map<string, ReplicateFakeTraining>();
  const models = new Map<string, { owner: string; name: string; visibility: string; hardware: string }>();
  /** Versions pushed by trainings: version → the destination model and the face it learnt. */
  const trainedVersions = new Map<string, { model: string; face: Buffer | null }>();
  const trainingEnds: ReplicateFakeTrainingEnd[] = [];
  const deletedFiles: string[] = [];
  const uploadedFiles: string[] = [];
  const uploadedContent = new Map<string, { data: Buffer; contentType: string }>();
  const deleteRequests: string[] = [];
  const deleteFailures: ReplicateFakeFailure[] = [];
  let trainingCreates = 0;
  let creates = 0;
  let expireNextOutput = false;
  let base = '';

  const signWebhook: ReplicateFake['signWebhook'] = (body, signing = {}) => {
    const id = signing.id ?? `msg_${randomUUID().replace(/-/g, '')}`;
    const timestamp = String(signing.timestamp ?? Math.floor(Date.now() / 1000));
    return {
      url: null,
      headers: {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': timestamp,
        'webhook-signature': `v1,${signReplicateWebhook(signing.secret ?? secret, id, timestamp, body)}`,
      },
      body,
    };
  };

  const view = (p: ReplicateFakePrediction) => ({
    id: p.id,
    model: p.model,
    version: p.version,
    input: p.input,
    logs: p.logs,
    output: p.status === 'succeeded' ? p.output : null,
    error: p.error,
    status: p.status,
    data_removed: false,
    source: 'api',
    created_at: new Date().toISOString(),
    ...(p.status === 'succeeded'
      ? { completed_at: new Date().toISOString(), metrics: { predict_time: 1.2 } }
      : {}),
    webhook: p.webhook ?? undefined,
    webhook_events_filter: p.webhook ? ['completed'] : undefined,
    urls: { get: `${base}/v1/predictions/${p.id}`, cancel: `${base}/v1/predictions/${p.id}/cancel` },
  });

  async function fileBytes(value: unknown): Promise<Buffer | null> {
    if (typeof value !== 'string') return null;
    const data = /^data:[^;,]+;base64,(.*)$/s.exec(value);
    if (data) return Buffer.from(data[1]!, 'base64');
    const id = /\/v1\/files\/([^/]+)$/.exec(value)?.[1];
    return id ? (files.get(id)?.data ?? null) : null;
  }

  function publish(name: string, data: Buffer, contentType: string): string {
    if (expireNextOutput) expireNextOutput = false;
    else files.set(name, { data, contentType });
    return `${base}/v1/files/${name}`;
  }

  /** Makes the prediction's output as the model would, or fails it (refusal, unreadable input). */
  async function run(p: ReplicateFakePrediction): Promise<void> {
    const prompt = String(p.input.prompt ?? '');
    if (prompt.toLowerCase().includes(REPLICATE_REFUSED_WORD)) {
      p.status = 'failed';
      p.error = 'NSFW content detected. Try running it again, or try a different prompt.';
      return;
    }
    const seed = Number(p.input.seed ?? 1);
    const trained = trainedVersions.get(p.version);
    if (trained) {
      const scene = (await drawScene(prompt, seed)).data;
      const picture = trained.face ? (await insetFace(scene, trained.face)).data : scene;
      p.output = [publish(`${p.id}.png`, picture, 'image/png')];
    } else if (p.model === 'cdingram/face-swap') {
      const [target, face] = [await fileBytes(p.input.input_image), await fileBytes(p.input.swap_image)];
      if (!target || !face) return fail(p, 'Could not load the input images.');
      p.output = publish(`${p.id}.png`, (await insetFace(target, face)).data, 'image/png');
    } else if (p.model === 'kwaivgi/kling-v2.1') {
      const start = await fileBytes(p.input.start_image);
      const still = start ?? (await drawScene(prompt, seed)).data;
      const mp4 = await encodeStillVideo(still, Number(p.input.duration ?? 5));
      p.output = publish(`${p.id}.mp4`, mp4, 'video/mp4');
    } else if (p.model === 'black-forest-labs/flux-fill-pro') {
      // FLUX Fill: magenta where the mask is white, the picture elsewhere, so a test sees where.
      const [source, mask] = [await fileBytes(p.input.image), await fileBytes(p.input.mask)];
      if (!source || !mask) return fail(p, 'Could not load image or mask.');
      p.output = publish(`${p.id}.png`, await paintMasked(source, mask), 'image/png');
    } else if (p.model === 'nightmareai/real-esrgan' || p.model === 'sczhou/codeformer') {
      // Real-ESRGAN enlarges by `scale` (0–10, default 4); CodeFormer by `upscale` (default 2).
      const source = await fileBytes(p.input.image);
      if (!source) return fail(p, 'Could not load image.');
      const factor =
        p.model === 'sczhou/codeformer' ? Number(p.input.upscale ?? 2) : Number(p.input.scale ?? 4);
      if (!(factor > 0 && factor <= 10)) return fail(p, `The scale ${factor} is out of range.`);
      const { width = 64, height = 64 } = await sharp(source).metadata();
      const larger = await sharp(source)
        .resize(Math.round(width * factor), Math.round(height * factor), { kernel: 'lanczos3' })
        .png()
        .toBuffer();
      p.output = publish(`${p.id}.png`, larger, 'image/png');
    } else if (p.model === 'bria/remove-background') {
      // The person kept: a PNG whose alpha is an upright ellipse in the middle, clear elsewhere.
      const source = await fileBytes(p.input.image);
      if (!source) return fail(p, 'Could not load image.');
      p.output = publish(`${p.id}.png`, await cutOutMiddle(source), 'image/png');
    } else if (p.model === 'cuuupid/idm-vton') {
      // The garment drawn over the lower two thirds of the person, so a test sees it was worn.
      const [person, garment] = [await fileBytes(p.input.human_img), await fileBytes(p.input.garm_img)];
      if (!person || !garment) return fail(p, 'Could not load human_img or garm_img.');
      const { width = 64, height = 64 } = await sharp(person).metadata();
      const worn = Math.round((height * 2) / 3);
      const overlay = await sharp(garment)
        .resize(width, worn, { fit: 'cover' })
        .extend({ top: height - worn, background: { r: 0, g: 0, b: 0, alpha: 0 } })
        .png()
        .toBuffer();
      const dressed = await sharp(person)
        .composite([{ input: overlay }])
        .jpeg()
        .toBuffer();
      p.output = publish(`${p.id}.jpg`, dressed, 'image/jpeg');
    } else if (p.model.includes('kontext')) {
      const source = await fileBytes(p.input.input_image);
      if (!source) return fail(p, 'Could not load input_image.');
      p.output = publish(`${p.id}.png`, (await recolour(source)).data, 'image/png');
    } else {
      p.output = [publish(`${p.id}.png`, (await drawScene(prompt, seed)).data, 'image/png')];
    }
    p.status = 'succeeded';
  }

  async function cutOutMiddle(source: Buffer): Promise<Buffer> {
    const { width = 64, height = 64 } = await sharp(source).metadata();
    const ellipse = Buffer.from(
      `<svg width="${width}" height="${height}"><ellipse cx="${width / 2}" cy="${height / 2}" rx="${width / 3}" ry="${height / 2.2}" fill="#fff"/></svg>`,
    );
    const alpha = await sharp(ellipse).ensureAlpha().extractChannel(3).raw().toBuffer();
    return sharp(await sharp(source).removeAlpha().toBuffer())
      .joinChannel(alpha, { raw: { width, height, channels: 1 } })
      .png()
      .toBuffer();
  }

  async function paintMasked(source: Buffer, mask: Buffer): Promise<Buffer> {
    const { width = 64, height = 64 } = await sharp(source).metadata();
    const alpha = await sharp(mask).resize(width, height, { fit: 'fill' }).greyscale().raw().toBuffer();
    const magenta = await sharp({ create: { width, height, channels: 3, background: '#ff00ff' } })
      .joinChannel(alpha, { raw: { width, height, channels: 1 } })
      .png()
      .toBuffer();
    return sharp(source)
      .composite([{ input: magenta }])
      .png()
      .toBuffer();
  }

  function fail(p: ReplicateFakePrediction, error: string) {
    p.status = 'failed';
    p.error = error;
  }

  async function advance(p: ReplicateFakePrediction, toEnd: boolean): Promise<void> {
    if (p.status === 'succeeded' || p.status === 'failed' || p.status === 'canceled') return;
    p.reads++;
    if (!toEnd && p.reads === 1) {
      p.status = 'processing';
      p.logs = 'Using seed: 1\n';
      return;
    }
    if (!toEnd && p.reads <= processingSteps) {
      const percent = Math.round((100 * p.reads) / (processingSteps + 1));
      p.logs += `${String(percent).padStart(3)}%|███       | ${p.reads}/${processingSteps + 1} [00:01<00:01]\n`;
      return;
    }
    await run(p);
    p.logs += '100%|██████████| done\n';
    await emitWebhook(p);
  }

  /** Trains: the ZIP must be readable; the destination gets a new version that draws its face. */
  async function train(t: ReplicateFakeTraining): Promise<void> {
    const scripted = trainingEnds.shift();
    if (scripted) {
      t.status = scripted.status;
      t.error = scripted.status === 'failed' ? scripted.error : null;
      return;
    }
    const zip = await fileBytes(t.input.input_images);
    let photos: Array<{ name: string; data: Buffer }> = [];
    try {
      photos = zip ? unzipStored(zip) : [];
    } catch {
      photos = [];
    }
    if (photos.length === 0) {
      t.status = 'failed';
      t.error = 'Could not read input_images: expected a zip file of images.';
      return;
    }
    const version = randomBytes(32).toString('hex');
    trainedVersions.set(version, { model: t.destination, face: photos[0]!.data });
    t.output = {
      version: `${t.destination}:${version}`,
      weights: publish(`${t.id}-trained_model.tar`, Buffer.from('lora.safetensors'), 'application/x-tar'),
    };
    t.status = 'succeeded';
  }

  async function advanceTraining(t: ReplicateFakeTraining, toEnd: boolean): Promise<void> {
    if (t.status === 'succeeded' || t.status === 'failed' || t.status === 'canceled') return;
    t.reads++;
    if (!toEnd && t.reads === 1) {
      t.status = 'processing';
      t.logs = 'Extracting images from zip\n';
      return;
    }
    if (!toEnd && t.reads <= processingSteps) {
      const percent = Math.round((100 * t.reads) / (processingSteps + 1));
      t.logs += `flux_train_replicate: ${String(percent).padStart(3)}%|███       | ${t.reads}/${processingSteps + 1}\n`;
      return;
    }
    await train(t);
    if ((t.status as string) === 'succeeded') t.logs += 'flux_train_replicate: 100%|██████████| done\n';
    await emitWebhook(t);
  }

  const trainingView = (t: ReplicateFakeTraining) => ({
    id: t.id,
    model: t.model,
    version: t.version,
    input: t.input,
    logs: t.logs,
    output: t.status === 'succeeded' ? t.output : null,
    error: t.error,
    status: t.status,
    source: 'api',
    created_at: new Date().toISOString(),
    ...(t.status === 'succeeded' ? { completed_at: new Date().toISOString() } : {}),
    webhook: t.webhook ?? undefined,
    webhook_events_filter: t.webhook ? ['completed'] : undefined,
    urls: { get: `${base}/v1/trainings/${t.id}`, cancel: `${base}/v1/trainings/${t.id}/cancel` },
  });

  async function emitWebhook(
    p: ReplicateFakePrediction | ReplicateFakeTraining,
  ): Promise<ReplicateSignedWebhook | null> {
    if (!p.webhook) return null;
    const body = 'destination' in p ? trainingView(p) : view(p);
    const delivery = { ...signWebhook(JSON.stringify(body)), url: p.webhook };
    webhooks.push(delivery);
    if (options.deliverWebhooks) {
      fetch(p.webhook, { method: 'POST', headers: delivery.headers, body: delivery.body }).catch(
        () => undefined,
      );
    }
    return delivery;
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', base);
    const path = url.pathname.replace(/\/+$/, '');
    const fileMatch = /^\/v1\/files\/([^/]+)$/.exec(path);
    if (request.method === 'GET' && fileMatch) {
      const file = files.get(fileMatch[1]!);
      if (!file) return problem(response, 404, 'Not found', 'The requested resource could not be found.');
      response.writeHead(200, { 'content-type': file.contentType, 'content-length': file.data.length });
      response.end(file.data);
      return;
    }
    if (request.headers.authorization !== `Bearer ${token}`) {
      return problem(response, 401, 'Unauthenticated', 'You did not pass a valid authentication token');
    }
    const body = await readBody(request);

    if (request.method === 'GET' && path === '/v1/webhooks/default/secret')
      return json(response, 200, { key: secret });

    // The account's predictions, newest first, a page at a time (readiness probes ask for one page).
    if (request.method === 'GET' && path === '/v1/predictions') {
      const results = [...predictions.values()].reverse().slice(0, 100).map(view);
      return json(response, 200, { previous: null, next: null, results });
    }

    if (request.method === 'POST' && path === '/v1/files') {
      const form = await new Response(new Uint8Array(body), {
        headers: { 'content-type': String(request.headers['content-type']) },
      })
        .formData()
        .catch(() => null);
      const content = form?.get('content');
      if (!(content instanceof Blob)) return problem(response, 422, 'Invalid file', 'content is required');
      const id = randomUUID().replace(/-/g, '').slice(0, 24);
      const data = Buffer.from(await content.arrayBuffer());
      files.set(id, { data, contentType: content.type || 'application/octet-stream' });
      uploadedFiles.push(id);
      uploadedContent.set(id, files.get(id)!);
      return json(response, 201, {
        id,
        name: (content as File).name ?? 'file',
        content_type: content.type,
        size: data.length,
        checksums: {},
        metadata: JSON.parse(String(form?.get('metadata') ?? '{}')) as unknown,
        created_at: new Date().toISOString(),
        expires_at: new Date(Date.now() + 24 * 3600 * 1000).toISOString(),
        urls: { get: `${base}/v1/files/${id}` },
      });
    }

    if (request.method === 'DELETE' && fileMatch) {
      deleteRequests.push(fileMatch[1]!);
      const failure = deleteFailures.shift();
      if (failure) return fail429or5xx(response, failure);
      if (!files.delete(fileMatch[1]!))
        return problem(response, 404, 'Not found', 'The requested resource could not be found.');
      deletedFiles.push(fileMatch[1]!);
      response.writeHead(204);
      response.end();
      return;
    }

    const modelPath = /^\/v1\/models\/([^/]+)\/([^/]+)$/.exec(path);
    if (request.method === 'GET' && modelPath) {
      const ref = `${modelPath[1]}/${modelPath[2]}`;
      if (ref === REPLICATE_FAKE_TRAINER) {
        return json(response, 200, modelView(modelPath[1]!, modelPath[2]!, REPLICATE_FAKE_TRAINER_VERSION));
      }
      const made = models.get(ref);
      if (!made) return problem(response, 404, 'Not found', 'The requested resource could not be found.');
      const latest = [...trainedVersions].reverse().find(([, trained]) => trained.model === ref)?.[0];
      return json(response, 200, modelView(made.owner, made.name, latest ?? null, made.visibility));
    }

    if (request.method === 'POST' && path === '/v1/models') {
      let parsed: Record<string, unknown>;
      try {
        parsed = JSON.parse(body.toString('utf8') || '{}') as Record<string, unknown>;
      } catch {
        return problem(response, 400, 'Bad request', 'The request body is not valid JSON.');
      }
      const missing = ['owner', 'name', 'visibility', 'hardware'].filter(
        (field) => typeof parsed[field] !== 'string' || !parsed[field],
      );
      if (missing.length > 0 || !['public', 'private'].includes(String(parsed.visibility))) {
        return problem(
          response,
          422,
          'Invalid input',
          `Missing or invalid: ${missing.join(', ') || 'visibility'}`,
        );
      }
      const [owner, name] = [String(parsed.owner), String(parsed.name)];
      if (!/^[a-z0-9][a-z0-9._-]*$/.test(name)) {
        return problem(
          response,
          422,
          'Invalid input',
          'name may only contain lowercase letters, numbers, dashes, underscores and periods',
        );
      }
      if (models.has(`${owner}/${name}`)) {
        return problem(response, 409, 'Conflict', 'A model with that name and owner already exists.');
      }
      models.set(`${owner}/${name}`, {
        owner,
        name,
        visibility: String(parsed.visibility),
        hardware: String(parsed.hardware),
      });
      return json(response, 201, modelView(owner, name, null, String(parsed.visibility)));
    }

    const trainingCreate = /^\/v1\/models\/([^/]+)\/([^/]+)\/versions\/([^/]+)\/trainings$/.exec(path);
    if (request.method === 'POST' && trainingCreate) {
      const failure = createFailures.shift();
      if (failure) return fail429or5xx(response, failure);
      let parsed: { destination?: string; input?: Record<string, unknown>; webhook?: string };
      try {
        parsed = JSON.parse(body.toString('utf8') || '{}') as typeof parsed;
      } catch {
        return problem(response, 400, 'Bad request', 'The request body is not valid JSON.');
      }
      const trainer = `${trainingCreate[1]}/${trainingCreate[2]}`;
      if (trainer !== REPLICATE_FAKE_TRAINER || trainingCreate[3] !== REPLICATE_FAKE_TRAINER_VERSION) {
        return problem(
          response,
          422,
          'Invalid version or not permitted',
          'The specified version does not exist (or perhaps you don’t have permission to use it?)',
        );
      }
      if (!parsed.destination || !models.has(parsed.destination)) {
        return problem(response, 404, 'Not found', 'The specified training destination does not exist');
      }
      const input = parsed.input ?? {};
      if (typeof input.input_images !== 'string' || !input.input_images) {
        return json(response, 422, {
          title: 'Input validation failed',
          detail: '- input.input_images: input_images is required\n',
          status: 422,
          invalid_fields: [
            { type: 'required', field: 'input.input_images', description: 'input_images is required' },
          ],
        });
      }
      const training: ReplicateFakeTraining = {
        id: randomBytes(13).toString('hex').slice(0, 26),
        model: trainer,
        version: trainingCreate[3]!,
        destination: parsed.destination,
        input,
        status: 'starting',
        output: null,
        error: null,
        logs: '',
        webhook: parsed.webhook ?? null,
        reads: 0,
      };
      trainings.set(training.id, training);
      trainingCreates++;
      return json(response, 201, trainingView(training));
    }

    const trainingPath = /^\/v1\/trainings\/([^/]+)(\/cancel)?$/.exec(path);
    if (trainingPath) {
      const training = trainings.get(trainingPath[1]!);
      if (!training) return problem(response, 404, 'Not found', 'The requested resource could not be found.');
      if (request.method === 'POST' && trainingPath[2]) {
        if (training.status === 'starting' || training.status === 'processing') {
          training.status = 'canceled';
          await emitWebhook(training);
        }
        return json(response, 200, trainingView(training));
      }
      if (request.method === 'GET' && !trainingPath[2]) {
        const failure = readFailures.shift();
        if (failure) return fail429or5xx(response, failure);
        await advanceTraining(training, false);
        return json(response, 200, trainingView(training));
      }
      return problem(response, 405, 'Method not allowed', 'Method not allowed');
    }

    const createPath = /^\/v1\/models\/([^/]+)\/([^/]+)\/predictions$/.exec(path);
    if (request.method === 'POST' && (createPath || path === '/v1/predictions')) {
      const failure = createFailures.shift();
      if (failure) return fail429or5xx(response, failure);
      let parsed: { version?: string; input?: Record<string, unknown>; webhook?: string };
      try {
        parsed = JSON.parse(body.toString('utf8') || '{}') as typeof parsed;
      } catch {
        return problem(response, 400, 'Bad request', 'The request body is not valid JSON.');
      }
      const model = createPath
        ? `${createPath[1]}/${createPath[2]}`
        : (KNOWN_VERSIONS[parsed.version ?? ''] ?? trainedVersions.get(parsed.version ?? '')?.model);
      if (!model || (createPath && !KNOWN_MODELS.includes(model))) {
        return problem(
          response,
          422,
          'Invalid version or not permitted',
          'The specified version does not exist (or perhaps you don’t have permission to use it?)',
        );
      }
      const input = parsed.input ?? {};
      // Kling v2.1 at Replicate animates a first frame: it has no text-to-video of its own.
      const required = REQUIRED_INPUTS[model] ?? ['prompt'];
      const missing = required.filter((field) => typeof input[field] !== 'string' || !input[field]);
      if (missing.length > 0) {
        return json(response, 422, {
          title: 'Input validation failed',
          detail: missing.map((field) => `- input.${field}: ${field} is required\n`).join(''),
          status: 422,
          invalid_fields: missing.map((field) => ({
            type: 'required',
            field: `input.${field}`,
            description: `${field} is required`,
          })),
        });
      }
      const prediction: ReplicateFakePrediction = {
        id: randomBytes(13).toString('hex').slice(0, 26),
        model,
        version: parsed.version ?? 'hidden',
        input,
        status: 'starting',
        output: null,
        error: null,
        logs: '',
        webhook: parsed.webhook ?? null,
        reads: 0,
      };
      predictions.set(prediction.id, prediction);
      creates++;
      if (/^wait/.test(String(request.headers.prefer ?? ''))) await advance(prediction, true);
      return json(response, 201, view(prediction));
    }

    const predictionPath = /^\/v1\/predictions\/([^/]+)(\/cancel)?$/.exec(path);
    if (predictionPath) {
      const prediction = predictions.get(predictionPath[1]!);
      if (!prediction)
        return problem(response, 404, 'Not found', 'The requested resource could not be found.');
      if (request.method === 'POST' && predictionPath[2]) {
        if (prediction.status === 'starting' || prediction.status === 'processing')
          prediction.status = 'canceled';
        return json(response, 200, view(prediction));
      }
      if (request.method === 'GET' && !predictionPath[2]) {
        const failure = readFailures.shift();
        if (failure) return fail429or5xx(response, failure);
        await advance(prediction, false);
        return json(response, 200, view(prediction));
      }
      return problem(response, 405, 'Method not allowed', 'Method not allowed');
    }
    return problem(response, 404, 'Not found', 'The requested resource could not be found.');
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent)
        problem(response, 500, 'Internal error', String((error as Error)?.message ?? error));
    });
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const address = server.address() as AddressInfo;
  base = `http://${address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}`;

  return {
    url: `${base}/v1`,
    token,
    secret,
    get creates() {
      return creates;
    },
    predictions,
    trainings,
    models,
    uploadedFiles,
    uploadedContent,
    deletedFiles,
    deleteRequests,
    failNextDeletes: (...failures) => void deleteFailures.push(...failures),
    get trainingCreates() {
      return trainingCreates;
    },
    failNextTrainings: (...ends) => void trainingEnds.push(...ends),
    async finishTraining(id) {
      const training = trainings.get(id);
      if (!training) throw new Error(`no training ${id}`);
      await advanceTraining(training, true);
      const delivery = await emitWebhook(training);
      if (!delivery) throw new Error('the training has no webhook');
      return delivery;
    },
    webhooks,
    failNextCreates: (...failures) => void createFailures.push(...failures),
    failNextReads: (...failures) => void readFailures.push(...failures),
    expireNextOutput: () => void (expireNextOutput = true),
    async finish(id) {
      const prediction = predictions.get(id);
      if (!prediction) throw new Error(`no prediction ${id}`);
      await advance(prediction, true);
      const delivery = await emitWebhook(prediction);
      if (!delivery) throw new Error('the prediction has no webhook');
      return delivery;
    },
    signWebhook,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function fail429or5xx(response: ServerResponse, failure: ReplicateFakeFailure): void {
  if (failure.status === 'disconnect') {
    response.socket?.destroy();
    return;
  }
  if (failure.status === 429) {
    return json(
      response,
      429,
      { detail: 'Request was throttled. Your rate limit resets in ~30s.', status: 429 },
      failure.retryAfter === undefined ? {} : { 'retry-after': String(failure.retryAfter) },
    );
  }
  problem(response, failure.status, 'Internal server error', 'Something went wrong on our end.');
}

function modelView(owner: string, name: string, latestVersion: string | null, visibility = 'public') {
  return {
    url: `https://replicate.com/${owner}/${name}`,
    owner,
    name,
    description: null,
    visibility,
    run_count: 0,
    latest_version: latestVersion
      ? { id: latestVersion, created_at: new Date().toISOString(), openapi_schema: {} }
      : null,
  };
}

function problem(response: ServerResponse, status: number, title: string, detail: string): void {
  json(response, status, { title, detail, status }, {}, 'application/problem+json');
}
