import { createHmac, timingSafeEqual } from 'node:crypto';
import type { TJobKind } from '@mirra/contracts';
import { EngineError, type EngineFaceModel, type EngineRequest } from '../engine.types.js';
import { jobServedBy } from '../engine-jobs.js';
import { providerPrompt } from '../provider-calls.js';
import { videoPrompt } from '../camera-moves.js';
import { instantLikenessPrompt } from '../face-photo.js';

/**
 * The jobs the Replicate engine runs with a model of its own. A face photo from a description runs
 * on the version Replicate pushed when it trained the digital model's LoRA (ENGINE_TRAINING=replicate),
 * and Kling at Replicate animates a photo only (a video from a description is left to the next engine).
 */
export type ReplicateJob = Extract<
  TJobKind,
  | 'text_to_image'
  | 'photo_edit'
  | 'restyle'
  | 'swap_face'
  | 'image_to_video'
  | 'masked_fill'
  | 'canvas_fill'
  | 'super_resolution'
  | 'photo_repair'
  | 'cut_out'
  | 'garment_swap'
>;
export const REPLICATE_JOBS: readonly TJobKind[] = [
  'text_to_image',
  'photo_edit',
  'restyle',
  'swap_face',
  'face_photo',
  'image_to_video',
  // FLUX Fill: the painted part (an inpaint), or the new canvas around a photo (an extend).
  'masked_fill',
  'canvas_fill',
  // The picture tools: Real-ESRGAN, CodeFormer, Bria's background remover, IDM-VTON.
  'super_resolution',
  'photo_repair',
  'cut_out',
  'garment_swap',
];

/**
 * Replicate models per job: `owner/name` runs an official model's latest version
 * (`/v1/models/{owner}/{name}/predictions`), `owner/name:version` that exact version
 * (`/v1/predictions`), as Replicate's client does.
 */
export type ReplicateModels = Record<ReplicateJob, string>;

/** What a Replicate prediction says of itself (`GET /v1/predictions/{id}`, and webhook bodies). */
export interface ReplicatePrediction {
  id: string;
  model?: string;
  version?: string;
  status: 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled' | 'aborted';
  /** The input as sent: the URLs of our uploaded files among it. */
  input?: unknown;
  output?: unknown;
  error?: unknown;
  logs?: string | null;
  metrics?: { predict_time?: number } | null;
}

/** A photo the input needs, uploaded by the client to Replicate's files API (short-lived). */
export type ReplicateFile = Blob;

/**
 * The model input: FLUX schnell for text to image, Kontext for editing and styling, the face-swap
 * model (`input_image` the target, `swap_image` the user's face), Kling for video from a photo
 * (`start_image`, which it requires), FLUX Fill for inpaint and extend, and the tools each with its
 * own fields: Real-ESRGAN (`image`, `scale`), CodeFormer (`image`, `upscale`), Bria's remover
 * (`image`) and IDM-VTON (`human_img`, `garm_img`).
 * Photos go as Blobs, which the client uploads to Replicate's files API (they expire there).
 */
export function replicateInput(
  request: EngineRequest,
  toFile: (image: { data: Buffer; contentType: string }) => ReplicateFile,
  facePhoto?: { data: Buffer; contentType: string },
  /** An extend's photo on its larger canvas, and the mask of the new part. */
  canvas?: { image: Buffer; mask: Buffer },
): Record<string, unknown> {
  const job = jobServedBy('Replicate', REPLICATE_JOBS, request);
  const settings = request.settings ?? {};
  switch (job) {
    case 'super_resolution':
      return {
        image: toFile(request.images[0]!),
        scale: settings.scale ?? 2,
        // GFPGAN would redraw the faces: an upscale keeps the person as they are (restore repairs faces).
        face_enhance: false,
      };
    case 'photo_repair':
      // CodeFormer as fal runs it: faces repaired close to the photo, the rest by Real-ESRGAN, twice the size.
      return {
        image: toFile(request.images[0]!),
        codeformer_fidelity: 0.7,
        background_enhance: true,
        face_upsample: true,
        upscale: 2,
      };
    case 'cut_out':
      // The person cut out as a PNG with transparency; a colour, blur or scene behind is Mirra's own.
      return { image: toFile(request.images[0]!) };
    case 'garment_swap':
      if (!settings.garment)
        throw EngineError.badInput('photo_deleted', 'The photo of the garment was deleted.');
      return {
        human_img: toFile(request.images[0]!),
        garm_img: toFile(settings.garment),
        // The try-on takes no words: IDM-VTON's prompt ("model is wearing …") gets a plain one.
        garment_des: REPLICATE_GARMENT_DESCRIPTION,
        // IDM-VTON has no automatic category; the upper body is its default and the common case.
        category: 'upper_body',
        // Cropped to IDM-VTON's 3:4 rather than stretched to it.
        crop: true,
        steps: 30,
        seed: request.seed,
      };
    case 'masked_fill': {
      const mask = settings.mask;
      if (!mask) throw EngineError.badInput('photo_deleted', 'The painted mask was deleted.');
      return {
        image: toFile(request.images[0]!),
        // FLUX Fill repaints where the mask is white, as Mirra's masks are.
        mask: toFile(mask),
        prompt: request.prompt.trim() || REPLICATE_REMOVE_PROMPT,
        seed: request.seed,
        output_format: 'png',
        safety_tolerance: 2,
      };
    }
    case 'canvas_fill':
      if (!canvas) throw new EngineError('engine.failed', 'The extend canvas was not made.', false);
      return {
        image: toFile({ data: canvas.image, contentType: 'image/png' }),
        mask: toFile({ data: canvas.mask, contentType: 'image/png' }),
        prompt: request.prompt.trim() || REPLICATE_EXTEND_PROMPT,
        seed: request.seed,
        output_format: 'png',
        safety_tolerance: 2,
      };
    case 'text_to_image':
      return {
        prompt: request.prompt,
        seed: request.seed,
        // One picture a call: the pictures of a run are generations of their own.
        num_outputs: 1,
        aspect_ratio: request.aspect ?? '4:3',
        output_format: 'png',
      };
    case 'photo_edit':
    case 'restyle':
      return {
        prompt: providerPrompt(request),
        input_image: toFile(request.images[0]!),
        seed: request.seed,
        output_format: 'png',
        safety_tolerance: 2,
        // Kontext keeps the photo's shape unless one is asked for.
        ...(request.aspect ? { aspect_ratio: request.aspect } : {}),
      };
    case 'swap_face':
      // Without the model's face photo this engine cannot swap: the next engine of the list does.
      if (!facePhoto)
        throw new EngineError('engine.unavailable', 'Replicate swaps a face only with a face photo.', true);
      return { input_image: toFile(request.images[0]!), swap_image: toFile(facePhoto) };
    case 'image_to_video': {
      const duration = request.durationSeconds !== null && request.durationSeconds > 7 ? 10 : 5;
      // Kling 2.1 here has no camera parameter: the chosen move is said in the prompt.
      return {
        prompt: videoPrompt(request.prompt, request.settings?.camera, true),
        duration,
        start_image: toFile(request.images[0]!),
      };
    }
    default:
      // A face photo runs on the LoRA's own version (facePhotoInput), never through this input.
      throw new EngineError(
        'engine.unavailable',
        `Replicate makes no ${job.replaceAll('_', ' ')} here.`,
        true,
      );
  }
}

/** The garment's description IDM-VTON needs; the try-on form asks for none. */
const REPLICATE_GARMENT_DESCRIPTION = 'the garment from the second photo';

/** What FLUX Fill is told when the person painted a part and wrote nothing: take it away. */
const REPLICATE_REMOVE_PROMPT =
  'Remove the painted object; continue the background naturally, seamless, photorealistic';
/** An extend without words: continue the picture. */
const REPLICATE_EXTEND_PROMPT =
  'Continue the scene naturally beyond the frame, matching light, perspective and style';

/**
 * A face photo's input for the version Replicate pushed when it trained the LoRA (the FLUX
 * fine-tuner's inputs): the trigger word leads the prompt, as the LoRA was trained on it.
 */
export function facePhotoInput(request: EngineRequest, triggerWord: string): Record<string, unknown> {
  return {
    prompt: `${triggerWord} ${request.prompt}`.trim(),
    seed: request.seed,
    num_outputs: 1,
    aspect_ratio: request.aspect ?? '3:4',
    output_format: 'png',
    lora_scale: 1,
  };
}

/**
 * FLUX Kontext Pro's input for an instant face photo: the reference photo as `input_image` (a
 * file URL at Replicate), the scene said around it, and the asked frame shape.
 */
export function instantFacePhotoInput(request: EngineRequest, referenceUrl: string): Record<string, unknown> {
  return {
    prompt: instantLikenessPrompt(request.prompt),
    input_image: referenceUrl,
    aspect_ratio: request.aspect ?? '3:4',
    seed: request.seed,
    output_format: 'png',
    safety_tolerance: 2,
  };
}

/**
 * The LoRA of the user's digital model trained at Replicate (its version, `owner/name:version`),
 * or an outage of this engine for the request: the next engine of the list makes the face photo.
 */
export function replicateLoraOf(faceModel: EngineFaceModel | undefined): {
  version: string;
  triggerWord: string;
} {
  if (!faceModel) throw EngineError.badInput('needs_model', 'A face photo needs your digital model.');
  const lora = faceModel.providerLoras?.replicate;
  const ref = lora ? parseModelRef(lora.url) : null;
  const version = ref && 'version' in ref ? (ref.version as string) : null;
  if (!lora || !version) {
    const elsewhere = Object.keys(faceModel.providerLoras ?? {}).filter((name) => name !== 'replicate');
    throw new EngineError(
      'engine.unavailable',
      elsewhere.length > 0
        ? `This digital model was trained at ${elsewhere.join(', ')}, not at Replicate.`
        : 'This digital model has no LoRA trained at Replicate.',
      true,
    );
  }
  return { version, triggerWord: lora.triggerWord };
}

/** `owner/name:version` → the version; `owner/name` → the model (its latest version). */
export function parseModelRef(ref: string): { model: string } | { version: string; model: string } {
  const colon = ref.indexOf(':');
  return colon > 0 ? { model: ref.slice(0, colon), version: ref.slice(colon + 1) } : { model: ref };
}

/** Progress from a prediction: the last tqdm line's percent in its logs, read into 5–95. */
export function progressOfPrediction(prediction: Pick<ReplicatePrediction, 'status' | 'logs'>): number {
  if (prediction.status === 'starting') return 2;
  const lines = (prediction.logs ?? '').split('\n').reverse();
  for (const line of lines) {
    const match = /(\d{1,3})%\|/.exec(line);
    if (match) return Math.round(5 + 0.9 * Math.min(100, Number(match[1])));
  }
  return 10;
}

const SAFETY = /nsfw|sensitive|safety|content.?policy|flagged|\bE005\b/i;

/** A failed prediction: refused by the model's safety check, or failed (retried by its id). */
export function predictionFailure(prediction: ReplicatePrediction): EngineError {
  const message = typeof prediction.error === 'string' ? prediction.error : 'Replicate’s model failed.';
  if (SAFETY.test(message)) return new EngineError('engine.refused', message, false);
  if (prediction.status === 'canceled' || prediction.status === 'aborted') {
    return new EngineError('engine.failed', `Replicate ${prediction.status} the prediction.`, false);
  }
  return new EngineError('engine.failed', message, false);
}

/**
 * How a failed call ends by what Replicate answered: no answer, 429 (after its Retry-After), 5xx
 * or a key it refuses → an outage (the next engine may take it); 422 with a safety message →
 * refused; any other answer (unknown model, invalid input) → this request fails.
 */
export function replicateFailure(answer: {
  status: number | null;
  body?: unknown;
  retryAfterSeconds?: number | null;
}): EngineError {
  const { status } = answer;
  if (status === null) return new EngineError('engine.unavailable', 'Replicate could not be reached.', true);
  if (status === 429) {
    return new EngineError(
      'engine.unavailable',
      'Replicate is rate-limiting us.',
      true,
      null,
      answer.retryAfterSeconds ?? null,
    );
  }
  if (status >= 500) return new EngineError('engine.unavailable', `Replicate answered ${status}.`, true);
  if (status === 401 || status === 403) {
    return new EngineError('engine.unavailable', 'Replicate refused our token.', true);
  }
  const detail = (answer.body as { detail?: unknown } | null)?.detail;
  if (typeof detail === 'string' && SAFETY.test(detail)) {
    return new EngineError('engine.refused', detail, false);
  }
  return new EngineError('engine.failed', `Replicate refused the request (${status}).`, false);
}

/** The first file URL of a prediction's output (`string` or `string[]`). */
export function outputUrl(output: unknown): string {
  const url = Array.isArray(output) ? output[0] : output;
  if (typeof url !== 'string') throw new EngineError('engine.failed', 'Replicate returned no file.', true);
  return url;
}

/** Webhooks older or newer than this (seconds) are refused as replays. */
export const REPLICATE_WEBHOOK_TOLERANCE_SECONDS = 300;

export type ReplicateWebhookVerdict = { ok: true } | { ok: false; reason: string };

/**
 * Replicate signs webhooks the Standard Webhooks way: `webhook-signature` holds space-separated
 * `v1,<base64>` entries, each an HMAC-SHA256 with the secret's key (base64 after `whsec_`) of
 * `${webhook-id}.${webhook-timestamp}.${raw body}`. Valid when some entry matches (compared in
 * constant time) and the timestamp is within five minutes.
 */
export function verifyReplicateWebhook(input: {
  headers: Record<string, string | string[] | undefined>;
  rawBody: Buffer;
  secret: string;
  nowSeconds: number;
}): ReplicateWebhookVerdict {
  const header = (name: string) => {
    const value = input.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const id = header('webhook-id');
  const timestamp = header('webhook-timestamp');
  const signatures = header('webhook-signature');
  if (!id || !timestamp || !signatures) return { ok: false, reason: 'missing headers' };
  if (!/^\d+$/.test(timestamp)) return { ok: false, reason: 'bad timestamp' };
  if (Math.abs(input.nowSeconds - Number(timestamp)) > REPLICATE_WEBHOOK_TOLERANCE_SECONDS) {
    return { ok: false, reason: 'stale timestamp' };
  }
  const expected = signReplicateWebhook(input.secret, id, timestamp, input.rawBody);
  const matches = signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    const wanted = Buffer.from(expected, 'base64');
    return given.length === wanted.length && timingSafeEqual(given, wanted);
  });
  return matches ? { ok: true } : { ok: false, reason: 'signature does not verify' };
}

/** The base64 HMAC-SHA256 Replicate puts after `v1,` for a delivery. */
export function signReplicateWebhook(
  secret: string,
  id: string,
  timestamp: string,
  body: Buffer | string,
): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64');
}

/** A Replicate training (`GET /v1/trainings/{id}`, and webhook bodies): prediction-like. */
export interface ReplicateTraining {
  id: string;
  model?: string;
  version?: string;
  status: ReplicatePrediction['status'];
  input?: { input_images?: unknown; trigger_word?: unknown } | null;
  output?: { version?: string | null; weights?: string | null } | null;
  error?: unknown;
  logs?: string | null;
}

/** Whether a model (`owner/name`) is a digital model's own, pushed by a training. */
export const isTrainedModel = (model: string) => /\/mirra-[0-9a-f-]{36}$/.test(model);

/** The price-table entry a digital model's own version is priced by (it runs FLUX dev with a LoRA). */
export const TRAINED_MODEL_PRICE_KEY = 'black-forest-labs/flux-dev-lora';

/** The destination model a digital model's LoRA is pushed to at Replicate (one per digital model). */
export const destinationModelName = (modelUuid: string) => `mirra-${modelUuid.toLowerCase()}`;

/**
 * How an ended training ends the model's provider training: succeeded → the version Replicate
 * pushed (`owner/name:version`, what the face-photo engine runs); failed, canceled or aborted →
 * failed (refused when its error is the safety check's).
 */
export function trainingEnding(
  training: ReplicateTraining,
  costUsd: number | null,
):
  | { kind: 'done'; loraUrl: string; costUsd: number | null }
  | { kind: 'failed'; refused: boolean; message: string } {
  if (training.status === 'succeeded') {
    const version = training.output?.version;
    if (typeof version === 'string' && 'version' in parseModelRef(version)) {
      return { kind: 'done', loraUrl: version, costUsd };
    }
    return { kind: 'failed', refused: false, message: 'Replicate’s training pushed no version.' };
  }
  const error = predictionFailure(training as ReplicatePrediction);
  return { kind: 'failed', refused: error.code === 'engine.refused', message: error.message };
}
