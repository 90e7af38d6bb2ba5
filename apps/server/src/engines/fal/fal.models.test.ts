import { describe, expect, it } from 'vitest';
import { EngineError, type EngineRequest } from '../engine.types.js';
import {
  decodeFalJob,
  encodeFalJob,
  falFailure,
  falInput,
  fileOfResult,
  falModelFor,
  klingDuration,
  DEFAULT_MOTION_PROMPT,
  type FalModels,
  progressOfStatus,
} from './fal.models.js';
import { retryAfterSeconds } from '../provider-calls.js';

const request = (over: Partial<EngineRequest>): EngineRequest => ({
  generationUuid: 'g',
  mode: 'simple',
  prompt: 'a fox',
  guidance: 7,
  seed: 9,
  style: null,
  durationSeconds: null,
  images: [],
  ...over,
});

describe('fal job ids', () => {
  it('keep the request id and the model, read back apart', () => {
    expect(decodeFalJob(encodeFalJob('abc-1', 'fal-ai/flux/schnell'))).toEqual({
      requestId: 'abc-1',
      model: 'fal-ai/flux/schnell',
    });
  });
});

describe('falInput', () => {
  it('asks FLUX for one PNG of the prompt with the seed and the safety checker on', () => {
    expect(falInput(request({}))).toMatchObject({
      prompt: 'a fox',
      seed: 9,
      num_images: 1,
      output_format: 'png',
      enable_safety_checker: true,
    });
  });
  it('sends the photo inline to Kontext for editing, and a style prompt for styling', () => {
    const photo = { data: Buffer.from('img'), contentType: 'image/jpeg', width: 1, height: 1 };
    const edit = falInput(request({ mode: 'editing', prompt: 'make her hair blonde', images: [photo] }));
    expect(edit).toMatchObject({ prompt: 'make her hair blonde', image_url: 'data:image/jpeg;base64,aW1n' });
    const styled = falInput(request({ mode: 'styling', prompt: '', style: 'toy', images: [photo] }));
    expect(styled.prompt).toMatch(/toy figure/);
  });
  it('refuses editing without a photo as bad input', () => {
    expect(() => falInput(request({ mode: 'editing' }))).toThrow(EngineError);
  });
});

describe('progressOfStatus', () => {
  it('reads the queue position, then the last log line’s steps or percent', () => {
    expect(progressOfStatus({ status: 'IN_QUEUE', queue_position: 3 })).toEqual({
      progress: 1,
      queuePosition: 3,
    });
    expect(progressOfStatus({ status: 'IN_PROGRESS', logs: [{ message: 'step 14/28' }] })).toEqual({
      progress: 50,
    });
    expect(
      progressOfStatus({ status: 'IN_PROGRESS', logs: [{ message: 'x' }, { message: '100%' }] }),
    ).toEqual({
      progress: 95,
    });
    expect(progressOfStatus({ status: 'IN_PROGRESS', logs: [] })).toEqual({ progress: 10 });
  });
});

describe('falFailure', () => {
  it('calls no answer, 5xx, 429 and a refused key an outage', () => {
    expect(falFailure({ status: null }).code).toBe('engine.unavailable');
    expect(falFailure({ status: 503 }).code).toBe('engine.unavailable');
    const limited = falFailure({ status: 429, retryAfterSeconds: 2 });
    expect([limited.code, limited.retryAfterSeconds]).toEqual(['engine.unavailable', 2]);
    expect(falFailure({ status: 401 }).code).toBe('engine.unavailable');
    expect(falFailure({ status: 504, timeoutType: 'user' }).code).toBe('engine.timeout');
  });
  it('calls a content-policy error a safety refusal, and other 4xx a failure of the request', () => {
    const body = { detail: [{ loc: ['body', 'prompt'], msg: 'flagged', type: 'content_policy_violation' }] };
    expect(falFailure({ status: 422, body }).code).toBe('engine.refused');
    const invalid = falFailure({ status: 422, body: { detail: [{ type: 'value_error.missing' }] } });
    expect([invalid.code, invalid.retryable]).toEqual(['engine.failed', false]);
  });
});

describe('fileOfResult', () => {
  it('takes the first image, and calls an image the safety checker flagged a refusal', () => {
    expect(fileOfResult({ images: [{ url: 'u' }], has_nsfw_concepts: [false] })).toEqual({
      url: 'u',
      isVideo: false,
    });
    expect(() => fileOfResult({ images: [{ url: 'u' }], has_nsfw_concepts: [true] })).toThrow(
      expect.objectContaining({ code: 'engine.refused' }),
    );
  });
  it('takes the face swap’s image and Kling’s video', () => {
    expect(fileOfResult({ image: { url: 'f' } })).toEqual({ url: 'f', isVideo: false });
    expect(fileOfResult({ video: { url: 'v.mp4' } })).toEqual({ url: 'v.mp4', isVideo: true });
    expect(() => fileOfResult({})).toThrow(expect.objectContaining({ code: 'engine.failed' }));
  });
});

const models: FalModels = {
  textToImage: 'flux',
  photoEdit: 'kontext',
  restyle: 'kontext-style',
  faceSwap: 'swap',
  facePhoto: 'flux-lora',
  facePhotoInstant: 'kontext',
  imageToVideo: 'kling-i2v',
  textToVideo: 'kling-t2v',
  upscale: 'clarity-upscaler',
  restore: 'codeformer',
  cutOut: 'birefnet',
  inpaint: 'flux-fill',
  outpaint: 'flux-fill-out',
  tryOn: 'fashn-tryon',
  talkingFromVoice: 'fabric',
  talkingFromText: 'fabric-text',
  training: 'trainer',
};
const photo = { data: Buffer.from('x'), contentType: 'image/png', width: 1, height: 1 };

describe('the other modes', () => {
  it('picks the model by mode and by whether a photo came', () => {
    expect(falModelFor(request({ mode: 'face_swap', images: [photo] }), models)).toBe('swap');
    expect(falModelFor(request({ mode: 'face_swap' }), models)).toBe('flux-lora');
    expect(falModelFor(request({ mode: 'video', images: [photo] }), models)).toBe('kling-i2v');
    expect(falModelFor(request({ mode: 'video' }), models)).toBe('kling-t2v');
  });
  it('face swap sends the target and the user’s face inline; a face photo the LoRA and its trigger word', () => {
    const face = { data: Buffer.from('face'), contentType: 'image/jpeg' };
    expect(falInput(request({ mode: 'face_swap', images: [photo] }), { facePhoto: face })).toEqual({
      base_image_url: `data:image/png;base64,${Buffer.from('x').toString('base64')}`,
      swap_image_url: `data:image/jpeg;base64,${Buffer.from('face').toString('base64')}`,
    });
    const lora = { url: 'https://x/lora.safetensors', triggerWord: 'mirraab12' };
    expect(falInput(request({ mode: 'face_swap', prompt: 'on a beach' }), { lora })).toMatchObject({
      prompt: 'mirraab12 on a beach',
      loras: [{ path: lora.url, scale: 1 }],
    });
  });
  it('video: Kling’s 5 or 10 s, the photo inline or the frame shape, a motion prompt when none was given', () => {
    expect([klingDuration(null), klingDuration(3), klingDuration(5), klingDuration(10)]).toEqual([
      '5',
      '5',
      '5',
      '10',
    ]);
    expect(
      falInput(request({ mode: 'video', prompt: '', images: [photo], durationSeconds: 10 })),
    ).toMatchObject({
      duration: '10',
      prompt: DEFAULT_MOTION_PROMPT,
      image_url: expect.stringMatching(/^data:image\/png/),
    });
    expect(falInput(request({ mode: 'video', prompt: 'waves', aspect: '9:16' }))).toMatchObject({
      prompt: 'waves',
      aspect_ratio: '9:16',
      duration: '5',
    });
  });
});

describe('retryAfterSeconds', () => {
  it('reads seconds or an HTTP date', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(retryAfterSeconds('3', now)).toBe(3);
    expect(retryAfterSeconds('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5);
    expect(retryAfterSeconds(null, now)).toBeNull();
  });
});
