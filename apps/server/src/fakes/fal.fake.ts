import { createHash, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { createLocalEngine } from '../engines/local/local.engine.js';
import { unzipStored } from '../engines/zip.js';
import { blackImage, encodeStillVideo, insetFace } from './fake-media.js';
import { json, readBody } from './provider-fake-http.js';

/**
 * A local stand-in for fal.ai's queue API, following its contracts:
 * - `POST /{owner}/{app}[/{path}]?fal_webhook=…` submits (`Authorization: Key …`, else 401
 *   `{"detail": "Unauthorized"}`) and answers the union of fal's two submit shapes;
 * - `GET /{owner}/{app}/requests/{id}/status?logs=1`: IN_QUEUE with a falling queue_position,
 *   IN_PROGRESS with "step k/n" logs (202 both), then COMPLETED (200). Each status call moves the
 *   job one step, or `finish(id)` moves it to the end;
 * - `GET /{owner}/{app}/requests/{id}`: the model's output (`images`, `has_nsfw_concepts`, `seed`),
 *   400 `{"detail": "Request is still in progress"}` before, 422 content policy for a refused
 *   Kontext request; `PUT …/cancel`;
 * - `GET /.well-known/jwks.json`: the Ed25519 key every webhook is signed with, exactly as fal signs
 *   (`X-Fal-Webhook-*` headers over `request_id\nuser_id\ntimestamp\nsha256(body)`);
 * - `GET /files/{name}`: results, real pictures drawn by the local engine's imaging code, and real
 *   H.264 MP4s encoded by ffmpeg from them (Kling's `video`);
 * - `POST /storage/upload/initiate` (rest.fal.ai) + `PUT` to its `upload_url`: fal's storage, where
 *   training ZIPs go; the LoRA trainer reads its `images_data_url` from there (at least 4 images,
 *   else 422), and FLUX LoRA loads only a LoRA this fake trained (else 422, as fal cannot fetch it).
 * Models are told apart by name: `face-swap` (`base_image_url` + `swap_image_url` → `image`),
 * `flux-lora` (`loras[]`), `kling-video` (image- or text-to-video → `video`), `fabric` (VEED's
 * talking photo: `image_url` + `audio_url`, or `text` at `/text` → `video`), `lora-fast-training`
 * (→ `diffusers_lora_file`), `kontext` (editing; its `image_url` a data URI or a file in fal's
 * storage), anything else text to image. A LoRA this fake trained draws the person it learnt (the
 * first photo of its ZIP set into the scene); `faceNextPictures(...)` scripts the face the next
 * face pictures (FLUX LoRA, Kontext) show instead: another person's photo, or null for none.
 * A prompt containing REFUSED_WORD is refused by the "safety checker" (FLUX blacks the image out
 * and flags it; Kontext ends the request with a content-policy error). Outages are scripted:
 * `failNextSubmits({status: 503})`, `{status: 429, retryAfter: 1}`, or `{status: 'disconnect'}`.
 */
export const REFUSED_WORD = 'forbidden-by-fal';

export type FakeFailure = { status: number; retryAfter?: number; body?: unknown } | { status: 'disconnect' };

export interface FalFakeJob {
  requestId: string;
  model: string;
  input: Record<string, unknown>;
  webhookUrl: string | null;
  state: 'IN_QUEUE' | 'IN_PROGRESS' | 'COMPLETED';
  statusCalls: number;
  output: Record<string, unknown> | null;
  /** Set when the request ended in an error (the result call answers it). */
  error: { status: number; body: unknown } | null;
}

export interface SignedWebhook {
  url: string | null;
  headers: Record<string, string>;
  body: string;
}

export interface FalFake {
  url: string;
  key: string;
  userId: string;
  jwksUrl: string;
  /** Accepted submissions (a resumed job must not add one). */
  readonly submissions: number;
  jobs: Map<string, FalFakeJob>;
  /** Webhooks made so far (also POSTed to their URL when `deliverWebhooks`). */
  webhooks: SignedWebhook[];
  /** Each storage upload's `X-Fal-Object-Lifecycle` header (null when none was sent). */
  storageLifecycles: Array<string | null>;
  /** The bytes uploaded to fal's storage at a file URL (null when none). */
  storedFile(url: string): Buffer | null;
  /**
   * The next face pictures (FLUX LoRA, Kontext), one each in order, show this photo instead of the
   * person asked for (another person's face), or the scene alone for null (no face at all).
   */
  faceNextPictures(...faces: Array<Buffer | null>): void;
  failNextSubmits(...failures: FakeFailure[]): void;
  failNextStatuses(...failures: FakeFailure[]): void;
  /** Runs the job to its end now and returns its signed webhook. */
  finish(requestId: string): Promise<SignedWebhook>;
  /** Times the JWKS was fetched. */
  readonly jwksFetches: number;
  /** Replaces the signing key: the JWKS serves only the new one from now on, as after a rotation. */
  rotateKey(): void;
  /** Signs any body as fal would (for forged or replayed deliveries in tests). */
  signWebhook(
    requestId: string,
    body: string,
    options?: { timestamp?: number; userId?: string; url?: string | null },
  ): SignedWebhook;
  close(): Promise<void>;
}

export async function startFalFake(
  options: {
    host?: string;
    port?: number;
    key?: string;
    userId?: string;
    /** Status calls a job spends in the queue, then in progress, before it completes. */
    queueSteps?: number;
    progressSteps?: number;
    deliverWebhooks?: boolean;
  } = {},
): Promise<FalFake> {
  const key = options.key ?? 'fake-fal-key';
  const userId = options.userId ?? 'fake-fal-user';
  const queueSteps = options.queueSteps ?? 1;
  const progressSteps = options.progressSteps ?? 1;
  let { publicKey, privateKey } = generateKeyPairSync('ed25519');
  let jwk = publicKey.export({ format: 'jwk' }) as { x: string };
  let keyId = 1;
  let jwksFetches = 0;
  const jobs = new Map<string, FalFakeJob>();
  const files = new Map<string, Buffer>();
  /** fal storage: uploaded bytes by their file URL, and pending upload targets by id. */
  const stored = new Map<string, Buffer>();
  const uploads = new Map<string, string>();
  const storageLifecycles: Array<string | null> = [];
  /** The person each LoRA this fake trained learnt: its first training photo, by the LoRA's URL. */
  const loraFaces = new Map<string, Buffer>();
  const scriptedFaces: Array<Buffer | null> = [];
  const submitFailures: FakeFailure[] = [];
  const statusFailures: FakeFailure[] = [];
  const webhooks: SignedWebhook[] = [];
  const localEngine = createLocalEngine();
  let submissions = 0;
  let base = '';

  function signWebhook(
    requestId: string,
    body: string,
    signing: { timestamp?: number; userId?: string; url?: string | null } = {},
  ): SignedWebhook {
    const timestamp = String(signing.timestamp ?? Math.floor(Date.now() / 1000));
    const user = signing.userId ?? userId;
    const message = [requestId, user, timestamp, createHash('sha256').update(body).digest('hex')].join('\n');
    return {
      url: signing.url ?? null,
      headers: {
        'content-type': 'application/json',
        'x-fal-webhook-request-id': requestId,
        'x-fal-webhook-user-id': user,
        'x-fal-webhook-timestamp': timestamp,
        'x-fal-webhook-signature': sign(null, Buffer.from(message), privateKey).toString('hex'),
      },
      body,
    };
  }

  /** The tools' models (upscale, restore, background, fill, try-on): their own inputs and answers. */
  const TOOL_MODEL = /clarity-upscaler|aura-sr|esrgan|codeformer|birefnet|rembg|\/fill|tryon/;

  async function render(job: FalFakeJob): Promise<void> {
    const validation = validate(job);
    if (validation) {
      job.error = { status: 422, body: { detail: [validation] } };
      return;
    }
    if (job.model.includes('lora-fast-training')) return renderTraining(job);
    if (job.model.includes('face-swap')) return renderFaceSwap(job);
    if (TOOL_MODEL.test(job.model)) return renderTool(job);
    if (job.model.includes('fabric')) return renderTalking(job);
    const prompt = String(job.input.prompt ?? '');
    const refused = prompt.toLowerCase().includes(REFUSED_WORD);
    // Kontext and Kling end a refused request with a content-policy error; FLUX blacks the image out.
    const errsOnRefusal = job.model.includes('kontext') || job.model.includes('kling-video');
    if (!refused && job.model.includes('kling-video')) return renderVideo(job);
    if (refused && errsOnRefusal) {
      job.error = {
        status: 422,
        body: {
          detail: [
            {
              loc: ['body', 'prompt'],
              msg: 'The prompt was flagged by the content checker.',
              type: 'content_policy_violation',
            },
          ],
        },
      };
      return;
    }
    const image = refused ? await blackImage() : await facePicture(job, prompt);
    const name = `${job.requestId}.png`;
    files.set(name, image.data);
    job.output = {
      images: [
        {
          url: `${base}/files/${name}`,
          content_type: 'image/png',
          file_name: name,
          file_size: image.data.length,
          width: image.width,
          height: image.height,
        },
      ],
      has_nsfw_concepts: [refused],
      prompt,
      seed: job.input.seed ?? 42,
      timings: { inference: 0.1 },
    };
  }

  /**
   * The tools, each answering as its model does: clarity-upscaler and CodeFormer `{ image }` at the
   * asked factor; BiRefNet `{ image }`, a PNG whose alpha keeps the middle (a person, for a
   * portrait); FLUX Fill and FASHN `{ images: [...] }`, the photo with the masked part (or the
   * upper body) recoloured, so a test sees what was changed where.
   */
  async function renderTool(job: FalFakeJob): Promise<void> {
    const source = fromDataUri(String(job.input.image_url ?? job.input.model_image ?? ''));
    if (!source) {
      job.error = {
        status: 422,
        body: {
          detail: [
            { loc: ['body', 'image_url'], msg: 'Could not read the image.', type: 'image_load_error' },
          ],
        },
      };
      return;
    }
    const photo = sharp(source);
    const { width = 256, height = 256 } = await photo.metadata();
    const name = `${job.requestId}.png`;
    if (/clarity-upscaler|aura-sr|esrgan|codeformer/.test(job.model)) {
      const factor = Number(job.input.upscale_factor ?? job.input.upscaling ?? job.input.scale ?? 2) || 2;
      const data = await photo
        .resize(width * factor, height * factor, { kernel: 'lanczos3' })
        .png()
        .toBuffer();
      job.output = {
        image: { ...publish(name, data, 'image/png'), width: width * factor, height: height * factor },
      };
      return;
    }
    if (/birefnet|rembg|background/.test(job.model)) {
      const ellipse = Buffer.from(
        `<svg width="${width}" height="${height}"><ellipse cx="${width / 2}" cy="${height / 2}" rx="${width / 3}" ry="${height / 2.2}" fill="#fff"/></svg>`,
      );
      const alpha = await sharp(ellipse).ensureAlpha().extractChannel(3).raw().toBuffer();
      const data = await sharp(await photo.removeAlpha().toBuffer())
        .joinChannel(alpha, { raw: { width, height, channels: 1 } })
        .png()
        .toBuffer();
      job.output = { image: { ...publish(name, data, 'image/png'), width, height } };
      return;
    }
    let overlay: Buffer;
    if (/fill/.test(job.model)) {
      const mask = fromDataUri(String(job.input.mask_url ?? ''));
      if (!mask) {
        job.error = {
          status: 422,
          body: {
            detail: [{ loc: ['body', 'mask_url'], msg: 'field required', type: 'value_error.missing' }],
          },
        };
        return;
      }
      // Magenta where the mask is white.
      const maskAlpha = await sharp(mask).resize(width, height, { fit: 'fill' }).greyscale().raw().toBuffer();
      overlay = await sharp({ create: { width, height, channels: 3, background: '#ff00ff' } })
        .joinChannel(maskAlpha, { raw: { width, height, channels: 1 } })
        .png()
        .toBuffer();
    } else {
      const garment = fromDataUri(String(job.input.garment_image ?? ''));
      if (!garment) {
        job.error = {
          status: 422,
          body: {
            detail: [{ loc: ['body', 'garment_image'], msg: 'field required', type: 'value_error.missing' }],
          },
        };
        return;
      }
      // The garment over the lower two thirds.
      overlay = await sharp(garment)
        .resize(width, Math.round((height * 2) / 3), { fit: 'cover' })
        .extend({ top: height - Math.round((height * 2) / 3), background: { r: 0, g: 0, b: 0, alpha: 0 } })
        .png()
        .toBuffer();
    }
    const data = await photo
      .composite([{ input: overlay }])
      .png()
      .toBuffer();
    job.output = {
      images: [{ ...publish(name, data, 'image/png'), width, height }],
      has_nsfw_concepts: [false],
      seed: job.input.seed ?? 42,
    };
  }

  /**
   * Kling's camera control: only Kling 1.0's text-to-video takes it (other versions refuse the
   * field), one movement of a known axis by a whole amount from -10 to 10.
   */
  function cameraControlProblem(job: FalFakeJob): { loc: string[]; msg: string; type: string } | null {
    const loc = ['body', 'advanced_camera_control'];
    if (!/kling-video\/v1\/(standard|pro)\/text-to-video$/.test(job.model))
      return { loc, msg: 'extra fields not permitted', type: 'value_error.extra' };
    const control = job.input.advanced_camera_control as {
      movement_type?: unknown;
      movement_value?: unknown;
    };
    const axes = ['horizontal', 'vertical', 'pan', 'tilt', 'roll', 'zoom'];
    if (!axes.includes(String(control?.movement_type)))
      return {
        loc: [...loc, 'movement_type'],
        msg: `value is not one of ${axes.join(', ')}`,
        type: 'type_error.enum',
      };
    const value = control.movement_value;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < -10 || value > 10)
      return { loc: [...loc, 'movement_value'], msg: 'a whole number from -10 to 10', type: 'value_error' };
    return null;
  }

  /** What fal's input validation says of a job's input (422 `detail[]`), or null when it is whole. */
  function validate(job: FalFakeJob): { loc: string[]; msg: string; type: string } | null {
    const missing = (field: string) => ({
      loc: ['body', field],
      msg: 'field required',
      type: 'value_error.missing',
    });
    if (TOOL_MODEL.test(job.model)) {
      if (job.model.includes('tryon'))
        return typeof job.input.model_image === 'string' ? null : missing('model_image');
      return typeof job.input.image_url === 'string' ? null : missing('image_url');
    }
    if (job.model.includes('lora-fast-training')) {
      const url = job.input.images_data_url;
      if (typeof url !== 'string') return missing('images_data_url');
      const zip = stored.get(url);
      const images = zip ? unzipStored(zip).filter((file) => /\.(png|jpe?g|webp)$/i.test(file.name)) : [];
      if (images.length < 4) {
        return {
          loc: ['body', 'images_data_url'],
          msg: 'At least 4 images are needed.',
          type: 'value_error',
        };
      }
      return null;
    }
    if (job.model.includes('fabric')) {
      // VEED Fabric: the portrait and a resolution, with the voice (audio_url) or, at /text, the words.
      if (typeof job.input.image_url !== 'string') return missing('image_url');
      if (job.input.resolution !== '720p' && job.input.resolution !== '480p') return missing('resolution');
      const spoken = job.model.endsWith('/text') ? 'text' : 'audio_url';
      if (typeof job.input[spoken] !== 'string' || !job.input[spoken]) return missing(spoken);
      return null;
    }
    if (job.model.includes('face-swap')) {
      if (typeof job.input.base_image_url !== 'string') return missing('base_image_url');
      if (typeof job.input.swap_image_url !== 'string') return missing('swap_image_url');
      return null;
    }
    if (typeof job.input.prompt !== 'string' || !job.input.prompt) return missing('prompt');
    if (job.model.includes('flux-lora')) {
      const loras = job.input.loras as Array<{ path?: unknown }> | undefined;
      const path = loras?.[0]?.path;
      if (typeof path !== 'string' || !files.has(path.split('/').at(-1) ?? '')) {
        return {
          loc: ['body', 'loras', '0', 'path'],
          msg: 'Could not download the LoRA weights.',
          type: 'file_download_error',
        };
      }
    }
    if (job.model.includes('image-to-video') && typeof job.input.image_url !== 'string')
      return missing('image_url');
    if (job.input.advanced_camera_control !== undefined) return cameraControlProblem(job);
    return null;
  }

  function publish(name: string, data: Buffer, contentType: string) {
    files.set(name, data);
    return {
      url: `${base}/files/${name}`,
      content_type: contentType,
      file_name: name,
      file_size: data.length,
    };
  }

  /** The LoRA "trained" from the ZIP: a file with the trigger word and the photos' count. */
  async function renderTraining(job: FalFakeJob): Promise<void> {
    const zip = stored.get(String(job.input.images_data_url))!;
    const photos = unzipStored(zip);
    const count = photos.length;
    const weights = Buffer.from(
      JSON.stringify({ fake_lora: true, trigger_word: job.input.trigger_word ?? null, images: count }),
    );
    const lora = publish(`${job.requestId}.safetensors`, weights, 'application/octet-stream');
    if (photos[0]) loraFaces.set(lora.url, photos[0].data);
    job.output = {
      diffusers_lora_file: lora,
      config_file: publish(`${job.requestId}-config.json`, Buffer.from('{}'), 'application/json'),
    };
  }

  /** The target photo with the face photo set into it (a real picture, not a real swap). */
  async function renderFaceSwap(job: FalFakeJob): Promise<void> {
    const target = fromDataUri(String(job.input.base_image_url));
    const face = fromDataUri(String(job.input.swap_image_url));
    if (!target || !face) {
      job.error = {
        status: 422,
        body: {
          detail: [
            { loc: ['body', 'base_image_url'], msg: 'Could not read the image.', type: 'image_load_error' },
          ],
        },
      };
      return;
    }
    const base = sharp(target);
    const { width = 512, height = 512 } = await base.metadata();
    const side = Math.max(16, Math.round(Math.min(width, height) / 3));
    const inset = await sharp(face).resize(side, side, { fit: 'cover' }).png().toBuffer();
    const data = await base
      .composite([{ input: inset, top: Math.round(height / 6), left: Math.round((width - side) / 2) }])
      .png()
      .toBuffer();
    job.output = { image: { ...publish(`${job.requestId}.png`, data, 'image/png'), width, height } };
  }

  /**
   * Kling: an H.264 MP4 of the sent photo (image-to-video) or of the local engine's scene for the
   * prompt (text-to-video), `duration` seconds long, small and at a low frame rate so it is quick.
   */
  async function renderVideo(job: FalFakeJob): Promise<void> {
    const seconds = Number(job.input.duration ?? 5) || 5;
    const source =
      typeof job.input.image_url === 'string'
        ? fromDataUri(job.input.image_url)
        : (await picture({ ...job, input: { ...job.input, image_url: undefined } }, String(job.input.prompt)))
            .data;
    if (!source) {
      job.error = {
        status: 422,
        body: {
          detail: [
            { loc: ['body', 'image_url'], msg: 'Could not read the image.', type: 'image_load_error' },
          ],
        },
      };
      return;
    }
    const mp4 = await encodeStillVideo(source, seconds);
    job.output = { video: publish(`${job.requestId}.mp4`, mp4, 'video/mp4') };
  }

  /**
   * VEED Fabric: the sent portrait as a still MP4 as long as the speech (its text at about 12
   * characters a second, or 3 s of a recording); words with the refused word end in a
   * content-policy error, as fal's text checks do.
   */
  async function renderTalking(job: FalFakeJob): Promise<void> {
    const text = typeof job.input.text === 'string' ? job.input.text : null;
    if (text?.toLowerCase().includes(REFUSED_WORD)) {
      job.error = {
        status: 422,
        body: {
          detail: [
            {
              loc: ['body', 'text'],
              msg: 'The text was flagged by the content checker.',
              type: 'content_policy_violation',
            },
          ],
        },
      };
      return;
    }
    const source = fromDataUri(String(job.input.image_url));
    if (!source) {
      job.error = {
        status: 422,
        body: {
          detail: [
            { loc: ['body', 'image_url'], msg: 'Could not read the image.', type: 'image_load_error' },
          ],
        },
      };
      return;
    }
    const seconds = text ? Math.max(1, Math.ceil(text.length / 12)) : 3;
    const mp4 = await encodeStillVideo(source, seconds);
    job.output = { video: publish(`${job.requestId}.mp4`, mp4, 'video/mp4') };
  }

  /**
   * A face picture shows its person: FLUX LoRA the face its LoRA learnt set into the scene, Kontext
   * its photo; a scripted face (another person, or none) stands in for the next ones.
   */
  async function facePicture(job: FalFakeJob, prompt: string) {
    const isLora = job.model.includes('flux-lora');
    if (scriptedFaces.length > 0 && (isLora || job.model.includes('kontext'))) {
      const face = scriptedFaces.shift()!;
      const scene = await picture({ ...job, input: { ...job.input, image_url: undefined } }, prompt);
      return face ? insetFace(scene.data, face) : scene;
    }
    const loras = Array.isArray(job.input.loras) ? (job.input.loras as Array<{ path?: unknown }>) : [];
    const learnt = isLora ? loraFaces.get(String(loras[0]?.path)) : undefined;
    const scene = await picture(job, prompt);
    return learnt ? insetFace(scene.data, learnt) : scene;
  }

  /** Text to image: the local engine's scene; an edit: the sent photo, recoloured. */
  async function picture(job: FalFakeJob, prompt: string) {
    const source = typeof job.input.image_url === 'string' ? imageOf(job.input.image_url) : null;
    if (source) {
      const { data, info } = await sharp(source)
        .modulate({ saturation: 1.4, hue: 30 })
        .png()
        .toBuffer({ resolveWithObject: true });
      return { data, width: info.width, height: info.height };
    }
    const started = await localEngine.start(
      {
        generationUuid: job.requestId,
        mode: 'simple',
        prompt,
        guidance: 7,
        seed: Number(job.input.seed ?? 1),
        style: null,
        durationSeconds: null,
        images: [],
      },
      { onProgress: () => undefined, signal: new AbortController().signal },
    );
    if (started.kind !== 'done') throw new Error('the local engine did not draw');
    const png = await sharp(started.output.data).png().toBuffer();
    return { data: png, width: started.output.width, height: started.output.height };
  }

  async function advance(job: FalFakeJob, toEnd: boolean): Promise<void> {
    if (job.state === 'COMPLETED') return;
    job.statusCalls++;
    if (!toEnd && job.statusCalls <= queueSteps) return;
    job.state = 'IN_PROGRESS';
    if (!toEnd && job.statusCalls <= queueSteps + progressSteps) return;
    await render(job);
    job.state = 'COMPLETED';
    await emitWebhook(job);
  }

  async function emitWebhook(job: FalFakeJob): Promise<SignedWebhook | null> {
    if (!job.webhookUrl) return null;
    const body = JSON.stringify(
      job.error
        ? {
            request_id: job.requestId,
            gateway_request_id: job.requestId,
            status: 'ERROR',
            error: `Invalid status code: ${job.error.status}`,
            payload: job.error.body,
          }
        : { request_id: job.requestId, gateway_request_id: job.requestId, status: 'OK', payload: job.output },
    );
    const delivery = signWebhook(job.requestId, body, { url: job.webhookUrl });
    webhooks.push(delivery);
    if (options.deliverWebhooks) {
      fetch(job.webhookUrl, { method: 'POST', headers: delivery.headers, body }).catch(() => undefined);
    }
    return delivery;
  }

  const statusBody = (job: FalFakeJob, logs: boolean) => {
    const urls = jobUrls(job);
    if (job.state === 'IN_QUEUE') {
      return {
        status: 'IN_QUEUE',
        request_id: job.requestId,
        ...urls,
        queue_position: queueSteps - job.statusCalls,
      };
    }
    if (job.state === 'IN_PROGRESS') {
      const step = Math.max(1, job.statusCalls - queueSteps);
      const total = progressSteps + 1;
      return {
        status: 'IN_PROGRESS',
        request_id: job.requestId,
        ...urls,
        logs: logs
          ? [
              {
                message: `step ${step}/${total}`,
                level: 'INFO',
                source: 'USER',
                timestamp: new Date().toISOString(),
              },
            ]
          : [],
      };
    }
    return {
      status: 'COMPLETED',
      request_id: job.requestId,
      ...urls,
      logs: [],
      metrics: { inference_time: 0.1 },
      ...(job.error ? { error: 'Invalid status code: 422', error_type: 'content_policy_violation' } : {}),
    };
  };

  /** An image input as fal reads it: a data URI, or a URL of a file in its storage. */
  const imageOf = (uri: string): Buffer | null => fromDataUri(uri) ?? stored.get(uri) ?? null;

  const jobUrls = (job: FalFakeJob) => {
    const app = job.model.split('/').slice(0, 2).join('/');
    const prefix = `${base}/${app}/requests/${job.requestId}`;
    return { response_url: prefix, status_url: `${prefix}/status`, cancel_url: `${prefix}/cancel` };
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', base);
    const parts = url.pathname.split('/').filter(Boolean);
    if (request.method === 'GET' && url.pathname === '/.well-known/jwks.json') {
      jwksFetches += 1;
      return json(response, 200, {
        keys: [{ kty: 'OKP', crv: 'Ed25519', x: jwk.x, kid: `fake-fal-${keyId}` }],
      });
    }
    if (request.method === 'GET' && parts[0] === 'files' && parts[1]) {
      const file = files.get(parts[1]) ?? stored.get(`${base}${url.pathname}`);
      if (!file) return json(response, 404, { detail: 'Not Found' });
      response.writeHead(200, { 'content-type': contentTypeOf(parts[1]), 'content-length': file.length });
      response.end(file);
      return;
    }
    // The upload target is a pre-signed URL: no key, the bytes are the body.
    if (request.method === 'PUT' && parts[0] === 'storage' && parts[1] === 'put' && parts[2]) {
      const target = uploads.get(parts[2]);
      if (!target) return json(response, 404, { detail: 'Upload not found' });
      stored.set(target, await readBody(request));
      uploads.delete(parts[2]);
      response.writeHead(200).end();
      return;
    }
    if (request.headers.authorization !== `Key ${key}`)
      return json(response, 401, { detail: 'Unauthorized' });
    const body = await readBody(request);

    if (request.method === 'POST' && url.pathname === '/storage/upload/initiate') {
      const { file_name: fileName } = JSON.parse(body.toString('utf8') || '{}') as { file_name?: string };
      const id = randomUUID();
      const fileUrl = `${base}/files/${id}-${(fileName ?? 'upload.bin').replace(/[^\w.-]/g, '_')}`;
      uploads.set(id, fileUrl);
      storageLifecycles.push(request.headers['x-fal-object-lifecycle']?.toString() ?? null);
      return json(response, 200, { upload_url: `${base}/storage/put/${id}`, file_url: fileUrl });
    }

    const requestsAt = parts.indexOf('requests');
    if (requestsAt === 2 && parts[3]) {
      const job = jobs.get(parts[3]);
      const app = parts.slice(0, 2).join('/');
      if (!job || !job.model.startsWith(`${app}`))
        return json(response, 404, { detail: 'Request not found' });
      const action = parts[4];
      if (request.method === 'GET' && action === 'status') {
        const failure = statusFailures.shift();
        if (failure) return fail(response, failure);
        await advance(job, false);
        return json(
          response,
          job.state === 'COMPLETED' ? 200 : 202,
          statusBody(job, url.searchParams.get('logs') === '1'),
        );
      }
      if (request.method === 'PUT' && action === 'cancel') {
        if (job.state === 'COMPLETED') return json(response, 400, { status: 'ALREADY_COMPLETED' });
        jobs.delete(job.requestId);
        return json(response, 202, { status: 'CANCELLATION_REQUESTED' });
      }
      if (request.method === 'GET' && !action) {
        if (job.state !== 'COMPLETED') return json(response, 400, { detail: 'Request is still in progress' });
        if (job.error)
          return json(response, job.error.status, job.error.body, { 'x-fal-retryable': 'false' });
        return json(response, 200, job.output, { 'x-fal-request-id': job.requestId });
      }
      return json(response, 405, { detail: 'Method Not Allowed' });
    }

    if (request.method === 'POST' && parts.length >= 2) {
      const failure = submitFailures.shift();
      if (failure) return fail(response, failure);
      let input: Record<string, unknown>;
      try {
        input = JSON.parse(body.toString('utf8') || '{}') as Record<string, unknown>;
      } catch {
        return json(response, 422, {
          detail: [{ loc: ['body'], msg: 'Invalid JSON', type: 'value_error.jsondecode' }],
        });
      }
      const requestId = randomUUID();
      const job: FalFakeJob = {
        requestId,
        model: parts.join('/'),
        input,
        webhookUrl: url.searchParams.get('fal_webhook'),
        state: 'IN_QUEUE',
        statusCalls: 0,
        output: null,
        error: null,
      };
      jobs.set(requestId, job);
      submissions++;
      return json(response, 200, {
        status: 'IN_QUEUE',
        request_id: requestId,
        gateway_request_id: requestId,
        ...jobUrls(job),
        queue_position: queueSteps,
      });
    }
    return json(response, 404, { detail: 'Not Found' });
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) json(response, 500, { detail: String((error as Error)?.message ?? error) });
    });
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const address = server.address() as AddressInfo;
  base = `http://${address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}`;

  return {
    url: base,
    key,
    userId,
    jwksUrl: `${base}/.well-known/jwks.json`,
    get submissions() {
      return submissions;
    },
    jobs,
    webhooks,
    storageLifecycles,
    storedFile: (url) => stored.get(url) ?? null,
    faceNextPictures: (...faces) => void scriptedFaces.push(...faces),
    failNextSubmits: (...failures) => void submitFailures.push(...failures),
    failNextStatuses: (...failures) => void statusFailures.push(...failures),
    async finish(requestId) {
      const job = jobs.get(requestId);
      if (!job) throw new Error(`no job ${requestId}`);
      if (job.state === 'COMPLETED') {
        const again = await emitWebhook(job);
        if (!again) throw new Error('the job has no webhook');
        return again;
      }
      await advance(job, true);
      const delivery = webhooks.findLast((hook) => hook.headers['x-fal-webhook-request-id'] === requestId);
      if (!delivery) throw new Error('the job has no webhook');
      return delivery;
    },
    get jwksFetches() {
      return jwksFetches;
    },
    rotateKey() {
      ({ publicKey, privateKey } = generateKeyPairSync('ed25519'));
      jwk = publicKey.export({ format: 'jwk' }) as { x: string };
      keyId += 1;
    },
    signWebhook,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function fail(response: ServerResponse, failure: FakeFailure): void {
  if (failure.status === 'disconnect') {
    response.socket?.destroy();
    return;
  }
  const headers: Record<string, string> = {};
  if (failure.retryAfter !== undefined) headers['retry-after'] = String(failure.retryAfter);
  const body =
    failure.body ??
    (failure.status === 429
      ? { detail: 'Too many requests' }
      : { detail: 'Runner scheduling failure', error_type: 'runner_scheduling_failure' });
  if (failure.status >= 500) headers['x-fal-error-type'] = 'runner_scheduling_failure';
  json(response, failure.status, body, headers);
}

function fromDataUri(uri: string): Buffer | null {
  const match = /^data:[^;,]+;base64,(.*)$/s.exec(uri);
  return match ? Buffer.from(match[1]!, 'base64') : null;
}

export function contentTypeOf(name: string): string {
  if (name.endsWith('.mp4')) return 'video/mp4';
  if (name.endsWith('.png')) return 'image/png';
  if (name.endsWith('.json')) return 'application/json';
  if (name.endsWith('.zip')) return 'application/zip';
  return 'application/octet-stream';
}
