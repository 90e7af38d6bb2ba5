import { aspectSize, JOB_KINDS, type TJobKind } from '@mirra/contracts';
import { EngineError, type EngineRequest } from '../engine.types.js';
import { jobOf } from '../engine-jobs.js';
import { providerPrompt } from '../provider-calls.js';
import { klingCameraControl, videoPrompt } from '../camera-moves.js';
import { instantLikenessPrompt } from '../face-photo.js';

/** The jobs the fal engine runs: every kind. */
export const FAL_JOBS: readonly TJobKind[] = JOB_KINDS;

/** The fal model configured for each kind of job (FAL_MODEL_*). */
export interface FalModels {
  /** FAL_MODEL_SIMPLE: FLUX for a picture from a description. */
  textToImage: string;
  /** FAL_MODEL_EDITING and FAL_MODEL_STYLING: Kontext for an edit and a restyle. */
  photoEdit: string;
  restyle: string;
  /** Face swap onto a photo: the target and one photo of the user's face. */
  faceSwap: string;
  /** A face photo from a description: FLUX with the user's LoRA trained at fal. */
  facePhoto: string;
  /**
   * A face photo of a model still in training (no LoRA yet): Kontext with the model's best
   * reference photo, which keeps the person in the scene the prompt describes.
   */
  facePhotoInstant: string;
  /** Video from a photo (Kling image-to-video) and from a description alone (text-to-video). */
  imageToVideo: string;
  textToVideo: string;
  /** The tools: clarity-upscaler, CodeFormer, BiRefNet (portrait), FLUX Fill (inpaint and outpaint), FASHN try-on. */
  upscale: string;
  restore: string;
  cutOut: string;
  inpaint: string;
  outpaint: string;
  tryOn: string;
  /**
   * A talking photo (VEED Fabric): the portrait with a recorded voice, and the portrait with the
   * text, said by the model's own voice (its text-to-speech picks a voice from the face).
   */
  talkingFromVoice: string;
  talkingFromText: string;
  /** LoRA training of a digital model. */
  training: string;
}

/** The user's LoRA trained at fal, as the face-photo model takes it. */
export interface FalLora {
  url: string;
  triggerWord: string;
}

/** Which fal model a request goes to: the one configured for its job. */
export function falModelFor(request: EngineRequest, models: FalModels): string {
  const modelOf: Record<TJobKind, string> = {
    text_to_image: models.textToImage,
    photo_edit: models.photoEdit,
    restyle: models.restyle,
    swap_face: models.faceSwap,
    face_photo: facePhotoByLikeness(request) === 'instant' ? models.facePhotoInstant : models.facePhoto,
    image_to_video: models.imageToVideo,
    text_to_video: models.textToVideo,
    super_resolution: models.upscale,
    photo_repair: models.restore,
    cut_out: models.cutOut,
    masked_fill: models.inpaint,
    canvas_fill: models.outpaint,
    garment_swap: models.tryOn,
    talking_video: request.settings?.voice ? models.talkingFromVoice : models.talkingFromText,
  };
  return modelOf[jobOf(request)];
}

/**
 * How fal makes a face photo: with the model's LoRA trained at fal once there is one (`trained`);
 * while the model is still in training, with an identity-preserving model fed its reference photo
 * (`instant`). A model trained elsewhere, or with no fal LoRA, gets none here (the next engine).
 */
export function facePhotoByLikeness(request: EngineRequest): 'trained' | 'instant' | null {
  const faceModel = request.faceModel;
  if (faceModel?.providerLoras?.fal) return 'trained';
  return faceModel?.inTraining ? 'instant' : null;
}

/** Kling makes clips of 5 or 10 seconds: the asked length rounded to one of them. */
export function klingDuration(seconds: number | null): '5' | '10' {
  return seconds !== null && seconds > 7 ? '10' : '5';
}

/** When the user asked for motion without words: what Kling is told to do with the photo. */
export { DEFAULT_MOTION_PROMPT } from '../camera-moves.js';

/**
 * A fal job as Mirra stores it (`provider_job_id`): fal's request id and the model it was sent
 * to, because status and result are asked of the model, and webhooks name only the request id.
 */
export function encodeFalJob(requestId: string, model: string): string {
  return `${requestId} ${model}`;
}
export function decodeFalJob(job: string): { requestId: string; model: string } {
  const space = job.indexOf(' ');
  if (space <= 0) throw new EngineError('engine.failed', `Not a fal job: ${job}`, false);
  return { requestId: job.slice(0, space), model: job.slice(space + 1) };
}

/** An image sent inline (a data URI): no permanent public link to the user's photo exists. */
export function dataUri(image: { data: Buffer; contentType: string }): string {
  return `data:${image.contentType};base64,${image.data.toString('base64')}`;
}

/**
 * The model input for a request: FLUX for text to image, Kontext for editing and styling, the
 * face-swap model with the user's face photo, FLUX LoRA with the user's LoRA for a face photo, and
 * Kling for video. `extra` carries what the request itself does not: the photo of the user's face
 * (face swap) and their fal LoRA (face photo).
 */
export function falInput(
  request: EngineRequest,
  extra: {
    facePhoto?: { data: Buffer; contentType: string };
    lora?: FalLora;
    /** A face photo of a model in training: the URL of its best reference photo in fal's storage. */
    referenceUrl?: string;
    /** An outpaint's photo on its larger canvas, and the mask of the new part. */
    canvas?: { image: Buffer; mask: Buffer };
    /** The model the input goes to, where its parameters differ by version (Kling's camera control). */
    model?: string;
  } = {},
): Record<string, unknown> {
  // One picture a call: the pictures of a run are generations of their own, each with its seed.
  const common = { seed: request.seed, num_images: 1, output_format: 'png' };
  const photo = request.images[0];
  const settings = request.settings ?? {};
  switch (jobOf(request)) {
    case 'text_to_image':
      return {
        ...common,
        prompt: request.prompt,
        image_size: falImageSize(request.aspect, 'landscape_4_3'),
        enable_safety_checker: true,
      };
    case 'super_resolution':
      return {
        image_url: dataUri(photo!),
        upscale_factor: settings.scale ?? 2,
        seed: request.seed,
        // Close to the photo: an upscale adds detail, it does not change the person.
        creativity: 0.2,
        resemblance: 0.8,
        enable_safety_checker: true,
      };
    case 'photo_repair':
      return {
        image_url: dataUri(photo!),
        fidelity: 0.7,
        upscaling: 2,
        face_upscale: true,
        seed: request.seed,
      };
    case 'cut_out':
      // The person cut out; what goes behind them is composed by Mirra from the settings.
      return {
        image_url: dataUri(photo!),
        model: 'Portrait',
        operating_resolution: '1024x1024',
        output_format: 'png',
        refine_foreground: true,
      };
    case 'masked_fill':
      if (!settings.mask) throw EngineError.badInput('photo_deleted', 'The painted mask was deleted.');
      return {
        ...common,
        prompt: request.prompt.trim() || REMOVE_PROMPT,
        image_url: dataUri(photo!),
        mask_url: dataUri(settings.mask),
        safety_tolerance: '2',
      };
    case 'canvas_fill':
      if (!extra.canvas) throw new EngineError('engine.failed', 'The outpaint canvas was not made.', false);
      return {
        ...common,
        prompt: request.prompt.trim() || EXTEND_PROMPT,
        image_url: dataUri({ data: extra.canvas.image, contentType: 'image/png' }),
        mask_url: dataUri({ data: extra.canvas.mask, contentType: 'image/png' }),
        safety_tolerance: '2',
      };
    case 'garment_swap':
      if (!settings.garment)
        throw EngineError.badInput('photo_deleted', 'The photo of the garment was deleted.');
      return {
        model_image: dataUri(photo!),
        garment_image: dataUri(settings.garment),
        category: 'auto',
        mode: 'balanced',
        seed: request.seed,
        num_samples: 1,
        output_format: 'png',
      };
    case 'image_to_video':
    case 'text_to_video':
      return videoInput(request, extra.model ?? '');
    case 'talking_video':
      return talkingInput(request);
    case 'swap_face':
      if (!extra.facePhoto) throw EngineError.badInput('needs_model', 'Face swap needs your digital model.');
      return { base_image_url: dataUri(request.images[0]!), swap_image_url: dataUri(extra.facePhoto) };
    case 'face_photo':
      if (!extra.lora && extra.referenceUrl) {
        return {
          ...common,
          prompt: instantLikenessPrompt(request.prompt),
          image_url: extra.referenceUrl,
          safety_tolerance: '2',
          aspect_ratio: request.aspect ?? '3:4',
        };
      }
      if (!extra.lora) throw EngineError.badInput('needs_model', 'A face photo needs your digital model.');
      return {
        ...common,
        prompt: `${extra.lora.triggerWord} ${request.prompt}`.trim(),
        loras: [{ path: extra.lora.url, scale: 1 }],
        image_size: falImageSize(request.aspect, 'portrait_4_3'),
        enable_safety_checker: true,
      };
    case 'photo_edit':
    case 'restyle':
      return {
        ...common,
        prompt: providerPrompt(request),
        image_url: dataUri(request.images[0]!),
        safety_tolerance: '2',
        // Kontext takes the frame shape as a ratio; without one it keeps the photo's.
        ...(request.aspect ? { aspect_ratio: request.aspect } : {}),
      };
  }
}

/** What FLUX Fill is told when the person painted a part and wrote nothing: take it away. */
export const REMOVE_PROMPT =
  'Remove the painted object; continue the background naturally, seamless, photorealistic';
/** An outpaint without words: continue the picture. */
export const EXTEND_PROMPT =
  'Continue the scene naturally beyond the frame, matching light, perspective and style';

/**
 * fal's `image_size`: the asked frame shape as pixels (FLUX takes any size in blocks of 16), or
 * the job's own preset when none was asked for.
 */
export function falImageSize(
  aspect: string | null | undefined,
  preset: string,
): string | { width: number; height: number } {
  return aspect ? aspectSize(aspect, 1024) : preset;
}

/**
 * VEED Fabric's input: the portrait with the recording (`audio_url`, inline like the photo, so the
 * voice never gets a public link) or with the text its own voice says; 720p. The clip's length is
 * the speech's.
 */
function talkingInput(request: EngineRequest): Record<string, unknown> {
  const photo = request.images[0];
  if (!photo) throw EngineError.badInput('needs_one_photo', 'A talking photo needs a portrait.');
  const voice = request.settings?.voice;
  const common = { image_url: dataUri(photo), resolution: '720p' };
  return voice ? { ...common, audio_url: dataUri(voice) } : { ...common, text: request.prompt };
}

/**
 * Kling's input: image-to-video from the photo, or text-to-video in the asked frame shape; the
 * camera move as the model's camera control where it has one, and said in the prompt always.
 */
function videoInput(request: EngineRequest, model: string): Record<string, unknown> {
  const duration = klingDuration(request.durationSeconds);
  const source = request.images[0];
  const common = { duration, negative_prompt: 'blur, distort, and low quality', cfg_scale: 0.5 };
  const camera = request.settings?.camera;
  const prompt = videoPrompt(request.prompt, camera, Boolean(source));
  if (source) return { ...common, prompt, image_url: dataUri(source) };
  const control = klingCameraControl(model, camera);
  return {
    ...common,
    prompt,
    aspect_ratio: request.aspect ?? '16:9',
    ...(control ? { advanced_camera_control: control } : {}),
  };
}

/** What a fal status means for the generation: waiting, running with progress, or finished. */
export type FalStatus =
  | { status: 'IN_QUEUE'; queue_position?: number }
  | { status: 'IN_PROGRESS'; logs?: Array<{ message: string }> | null }
  | { status: 'COMPLETED'; error?: string | null; error_type?: string | null };

/**
 * Progress from a status: queued → 1; running → the last log line's "45%" or "step 12/28"
 * read into 5–95 (10 when the logs say nothing); completed → 100.
 */
export function progressOfStatus(status: FalStatus): { progress: number; queuePosition?: number } {
  if (status.status === 'IN_QUEUE') return { progress: 1, queuePosition: status.queue_position ?? 0 };
  if (status.status === 'COMPLETED') return { progress: 100 };
  const logs = status.logs ?? [];
  for (let i = logs.length - 1; i >= 0; i--) {
    const message = logs[i]!.message;
    const percent = /(\d{1,3}(?:\.\d+)?)\s*%/.exec(message);
    const steps = /(\d+)\s*\/\s*(\d+)/.exec(message);
    const fraction = percent
      ? Number(percent[1]) / 100
      : steps && Number(steps[2]) > 0
        ? Number(steps[1]) / Number(steps[2])
        : null;
    if (fraction !== null) return { progress: Math.round(5 + 90 * Math.min(1, Math.max(0, fraction))) };
  }
  return { progress: 10 };
}

const CONTENT_POLICY = /content_policy|nsfw|safety/i;

/**
 * How a failed call to fal ends, by what fal answered: an outage (no answer, 5xx, 429, a key fal
 * refuses) may move to the next engine; a refusal by fal's safety system ends the generation as
 * moderated; any other answer is a failure of this request.
 */
export function falFailure(answer: {
  status: number | null;
  body?: unknown;
  retryAfterSeconds?: number | null;
  timeoutType?: string | null;
}): EngineError {
  const { status, body } = answer;
  if (status === null) return new EngineError('engine.unavailable', 'fal could not be reached.', true);
  if (status === 429) {
    return new EngineError(
      'engine.unavailable',
      'fal is rate-limiting us.',
      true,
      null,
      answer.retryAfterSeconds ?? null,
    );
  }
  if (status === 504 && answer.timeoutType === 'user') {
    return new EngineError('engine.timeout', 'fal did not start the job in time.', true);
  }
  if (status >= 500) return new EngineError('engine.unavailable', `fal answered ${status}.`, true);
  if (status === 401 || status === 403) {
    return new EngineError('engine.unavailable', 'fal refused our key.', true);
  }
  if (refusedBySafety(body)) {
    return new EngineError('engine.refused', 'fal refused the request on safety grounds.', false);
  }
  return new EngineError('engine.failed', `fal refused the request (${status}).`, false);
}

/** fal's error body names a content-policy type (`detail[].type` or `error_type`). */
export function refusedBySafety(body: unknown): boolean {
  if (!body || typeof body !== 'object') return false;
  const { detail, error_type: errorType } = body as { detail?: unknown; error_type?: unknown };
  if (typeof errorType === 'string' && CONTENT_POLICY.test(errorType)) return true;
  if (Array.isArray(detail)) {
    return detail.some((item) => typeof item?.type === 'string' && CONTENT_POLICY.test(item.type));
  }
  return false;
}

/**
 * The file a result is made of: the first image of a FLUX/Kontext result (`images[]`), the face
 * swap's `image`, or Kling's `video`. A result fal's safety checker blacked out is a refusal.
 */
export function fileOfResult(result: unknown): { url: string; isVideo: boolean } {
  const {
    images,
    image,
    video,
    has_nsfw_concepts: nsfw,
  } = (result ?? {}) as {
    images?: Array<{ url?: unknown }>;
    image?: { url?: unknown };
    video?: { url?: unknown };
    has_nsfw_concepts?: unknown;
  };
  if (Array.isArray(nsfw) && nsfw[0] === true) {
    throw new EngineError('engine.refused', 'fal’s safety checker refused the result.', false);
  }
  if (typeof video?.url === 'string') return { url: video.url, isVideo: true };
  const url = images?.[0]?.url ?? image?.url;
  if (typeof url !== 'string') throw new EngineError('engine.failed', 'fal returned no image.', true);
  return { url, isVideo: false };
}

/** The trained LoRA of a training result (`diffusers_lora_file`). */
export function loraOfTrainingResult(result: unknown): string {
  const file = (result as { diffusers_lora_file?: { url?: unknown } } | null)?.diffusers_lora_file;
  if (typeof file?.url !== 'string') throw new EngineError('engine.failed', 'fal returned no LoRA.', true);
  return file.url;
}
