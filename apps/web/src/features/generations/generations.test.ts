import { beforeAll, describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import { GenerationStatus, GUIDANCE_DEFAULT, GUIDANCE_MAX, PROMPT_MAX_LENGTH } from '@mirra/contracts';
import type { TGeneration, TUpload } from '../../lib/api-types';
import { ApiError } from '../../lib/api-error';
import { describeError } from '../../lib/error-messages';
import { createTestI18n } from '../../test/i18n';
import { pauseEndsAt, readChargeRefusal } from '../credits/charge-errors';
import { formatCountdown, secondsLeft } from '../../lib/countdown';
import {
  buildCreateBody,
  draftProblems,
  EMPTY_DRAFT,
  modeNeeds,
  parseSeed,
  readDraft,
  type GenerationDraft,
} from './generation-draft';
import { applyEvent, describeFailure, phaseOf, progressPercent } from './generation-status';
import { looksNonEnglish, promptProblem } from './prompt-rules';
import { buildSrcSet, isVideoResult, smallestVariant, sourceImageOf } from '../../lib/image-variants';
import { isAcceptedPhoto, uploadErrorMessage } from '../../lib/upload-errors';

const { NEW, IN_QUEUE, IN_PROGRESS, COMPLETED, ERROR, FAILED } = GenerationStatus;

let t: TFunction;
beforeAll(async () => {
  t = (await createTestI18n('en')).t;
});

describe('status and progress', () => {
  it('maps every status to what the result screen shows', () => {
    expect([NEW, IN_QUEUE, IN_PROGRESS, COMPLETED, ERROR, FAILED].map(phaseOf)).toEqual([
      'queued',
      'queued',
      'running',
      'completed',
      'failed',
      'failed',
    ]);
  });

  it('shows a sliver while queued, the reported progress while running, never 100 before the end', () => {
    expect(progressPercent(NEW, 0)).toBe(3);
    expect(progressPercent(IN_PROGRESS, 38)).toBe(38);
    expect(progressPercent(IN_PROGRESS, 100)).toBe(99);
    expect(progressPercent(COMPLETED, 80)).toBe(100);
  });

  it('never moves the bar backwards (late events, a retry back in the queue)', () => {
    expect(progressPercent(IN_PROGRESS, 20, 52)).toBe(52);
    expect(progressPercent(IN_QUEUE, 0, 66)).toBe(66);
    expect(progressPercent(FAILED, 0, 40)).toBe(40);
  });

  it('applies live events, but never undoes a final status', () => {
    const running = { status: IN_PROGRESS, progress: 10 } as TGeneration;
    expect(applyEvent(running, { status: IN_PROGRESS, progress: 52 })).toMatchObject({ progress: 52 });
    // The place in a provider's queue follows the events; an event without it keeps the last one.
    const waiting = applyEvent(running, { status: IN_PROGRESS, progress: 1, queue_position: 3 });
    expect(waiting.queue_position).toBe(3);
    expect(applyEvent(waiting, { status: IN_PROGRESS, progress: 1 }).queue_position).toBe(3);
    expect(
      applyEvent(waiting, { status: IN_PROGRESS, progress: 20, queue_position: null }).queue_position,
    ).toBeNull();
    // The outcome waits for the full record (with the result or the failure's reason).
    expect(applyEvent(running, { status: ERROR, progress: 10 })).toMatchObject({ status: IN_PROGRESS });
    expect(applyEvent(running, { status: COMPLETED, progress: 100 })).toMatchObject({
      status: IN_PROGRESS,
      progress: 100,
    });
    const done = { status: COMPLETED, progress: 100 } as TGeneration;
    expect(applyEvent(done, { status: IN_PROGRESS, progress: 80 })).toBe(done);
  });

  it("says 'Moderation failed, credits refunded' for a refused result, and translates known failures", () => {
    const moderated = describeFailure('generations.result_moderated');
    expect(t(moderated.key)).toBe('Moderation failed, credits refunded');
    expect(moderated.showDetail).toBe(false);
    expect(t(describeFailure('generations.timeout').key)).toMatch(/took too long/);
    // The engine's refusal says what it did not understand: its detail is kept.
    expect(describeFailure('generations.bad_input')).toEqual({
      key: 'result.failure.badInput',
      showDetail: true,
    });
    // A reason the engine named is worded in the user's language instead of its English detail.
    const noFace = describeFailure('generations.bad_input', 'no_face');
    expect(noFace).toMatchObject({ key: 'result.failure.badInput', showDetail: false });
    expect(t(noFace.reasonKey!)).toMatch(/^No face was found in this photo/);
    expect(describeFailure('generations.something_new')).toEqual({
      key: 'result.failedTitle',
      showDetail: true,
    });
    expect(t(describeFailure(null).key)).toBe('The generation failed');
  });
});

describe('result images', () => {
  const variants = [
    { url: '/m/w1024.webp', width: 1024, height: 1024 },
    { url: '/m/w256.webp', width: 256, height: 256 },
    { url: '/m/w512.webp', width: 512, height: 512 },
  ];

  it('builds srcset from the WebP renditions, smallest first', () => {
    expect(buildSrcSet(variants)).toBe('/m/w256.webp 256w, /m/w512.webp 512w, /m/w1024.webp 1024w');
    expect(buildSrcSet([])).toBe('');
  });

  it('uses the largest rendition when a result becomes a source photo, else the original', () => {
    expect(sourceImageOf({ url: '/m/original.png', variants })).toEqual({
      url: '/m/w1024.webp',
      extension: 'webp',
    });
    expect(sourceImageOf({ url: '/m/original.png?exp=1', variants: [] })).toEqual({
      url: '/m/original.png?exp=1',
      extension: 'png',
    });
  });

  it('takes thumbnails from the smallest rendition', () => {
    expect(smallestVariant(variants)?.url).toBe('/m/w256.webp');
    expect(smallestVariant([])).toBeNull();
  });
});

describe('countdown', () => {
  it('rounds up to whole seconds and stops at zero', () => {
    expect(secondsLeft(10_000, 0)).toBe(10);
    expect(secondsLeft(10_000, 9_001)).toBe(1);
    expect(secondsLeft(10_000, 10_000)).toBe(0);
    expect(secondsLeft(10_000, 12_000)).toBe(0);
  });

  it('reads as minutes and two-digit seconds', () => {
    expect(formatCountdown(7)).toBe('0:07');
    expect(formatCountdown(90)).toBe('1:30');
    expect(formatCountdown(720)).toBe('12:00');
    expect(formatCountdown(-3)).toBe('0:00');
  });
});

describe('prompt hints', () => {
  it("flags other scripts and letters English never has ('Only in English')", () => {
    expect(looksNonEnglish('A red fox in the snow, café at dawn')).toBe(false);
    expect(looksNonEnglish('Рыжая лиса в снегу')).toBe(true);
    expect(looksNonEnglish('Qız dəniz sahilində')).toBe(true);
    expect(looksNonEnglish('海边的女孩')).toBe(true);
    expect(looksNonEnglish('👋 2024!')).toBe(false);
  });

  it("checks the length first ('Maximum number of characters - 1000')", () => {
    expect(promptProblem('x'.repeat(PROMPT_MAX_LENGTH))).toBeNull();
    expect(promptProblem('ж'.repeat(PROMPT_MAX_LENGTH + 1))).toBe('tooLong');
    expect(promptProblem('Лиса')).toBe('notEnglish');
  });
});

describe('the generate draft', () => {
  const photo: TUpload = {
    uuid: '11111111-1111-4111-8111-111111111111',
    url: '/api/media/u.png',
    width: 640,
    height: 480,
    content_type: 'image/png',
    bytes: 1000,
  };
  const draft = (patch: Partial<GenerationDraft>): GenerationDraft => ({ ...EMPTY_DRAFT, ...patch });

  it('reads the seed: empty is random, anything else must be a whole number in range', () => {
    expect(parseSeed('')).toBeNull();
    expect(parseSeed(' 42 ')).toBe(42);
    expect(parseSeed('2147483647')).toBe(2147483647);
    expect(parseSeed('2147483648')).toBeNaN();
    expect(parseSeed('4.2')).toBeNaN();
  });

  it('knows what each mode still needs', () => {
    expect(draftProblems('simple', draft({}))).toEqual(['prompt']);
    expect(draftProblems('simple', draft({ prompt: 'a fox' }))).toEqual([]);
    expect(draftProblems('editing', draft({ prompt: 'brighter' }))).toEqual(['photo']);
    expect(draftProblems('styling', draft({ photo }))).toEqual(['style']);
    expect(draftProblems('styling', draft({ photo, style: 'oil' }))).toEqual([]);
    expect(draftProblems('simple', draft({ prompt: 'x'.repeat(1001), seed: '9999999999' }))).toEqual([
      'promptTooLong',
      'seed',
    ]);
  });

  it('asks face swap for a model, and for a target photo or a scene (the server’s rule)', () => {
    const modelUuid = '00000000-0000-4000-8000-000000000001';
    expect(draftProblems('face_swap', draft({}))).toEqual(['model', 'photoOrPrompt']);
    // A face swap onto a photo…
    expect(draftProblems('face_swap', draft({ modelUuid, photo }))).toEqual([]);
    // …or a face photo: a scene from the prompt, no photo at all.
    expect(draftProblems('face_swap', draft({ modelUuid, prompt: 'me on the Moon' }))).toEqual([]);
    expect(draftProblems('face_swap', draft({ modelUuid, prompt: '   ' }))).toEqual(['photoOrPrompt']);
    expect(buildCreateBody('face_swap', draft({ modelUuid, prompt: ' me on the Moon ' }))).toMatchObject({
      mode: 'face_swap',
      model_uuid: modelUuid,
      prompt: 'me on the Moon',
      images: [],
    });
    expect(buildCreateBody('face_swap', draft({ modelUuid, photo }))).toMatchObject({
      model_uuid: modelUuid,
      images: [photo.uuid],
    });
  });

  it('sends no description for a face swap onto a photo: the description is for a face photo', () => {
    const modelUuid = '00000000-0000-4000-8000-000000000001';
    // The field still holds the face photo's description when a photo is chosen.
    const onPhoto = draft({ modelUuid, photo, prompt: 'me on the Moon' });
    expect(buildCreateBody('face_swap', onPhoto)).toMatchObject({ prompt: '', images: [photo.uuid] });
    expect(draftProblems('face_swap', draft({ modelUuid, photo, prompt: 'x'.repeat(5000) }))).toEqual([]);
    // Other modes with a photo read it (a style's extra words, a video's motion).
    expect(buildCreateBody('video', draft({ photo, prompt: 'slow zoom' }))).toMatchObject({
      prompt: 'slow zoom',
    });
  });

  it('builds the request body: only what the mode takes, the seed as a number or random', () => {
    expect(
      buildCreateBody('styling', draft({ photo, style: 'watercolor', prompt: '  soft  ', seed: '7' })),
    ).toEqual({
      mode: 'styling',
      prompt: 'soft',
      guidance: GUIDANCE_DEFAULT,
      images: [photo.uuid],
      model_uuid: null,
      post_uuid: null,
      style: 'watercolor',
      seed: 7,
    });
    expect(
      buildCreateBody('simple', draft({ photo, style: 'oil', prompt: 'fox', guidance: 99 }), {
        postUuid: 'p',
      }),
    ).toMatchObject({ images: [], style: null, seed: null, guidance: GUIDANCE_MAX, post_uuid: 'p' });
  });

  it('animates a photo or makes a scene of a description, and sends its length and frame shape', () => {
    expect(modeNeeds('video')).toMatchObject({ photo: true, prompt: false, video: true });
    expect(draftProblems('video', draft({}))).toEqual(['photoOrPrompt']);
    expect(draftProblems('video', draft({ photo }))).toEqual([]);
    expect(draftProblems('video', draft({ prompt: 'snow over mountains' }))).toEqual([]);
    expect(buildCreateBody('video', draft({ photo, duration: 10, aspect: '16:9' }))).toMatchObject({
      mode: 'video',
      images: [photo.uuid],
      duration: 10,
      aspect: '16:9',
    });
    // Pictures send neither.
    const picture = buildCreateBody('styling', draft({ photo, style: 'oil', duration: 10 }));
    expect(picture).not.toHaveProperty('duration');
    expect(picture).not.toHaveProperty('aspect');
    // A stored draft keeps only offered lengths and shapes.
    expect(readDraft(JSON.stringify({ duration: 10, aspect: '1:1' }))).toMatchObject({
      duration: 10,
      aspect: '1:1',
    });
    expect(readDraft(JSON.stringify({ duration: 7, aspect: '4:3' }))).toEqual(EMPTY_DRAFT);
  });

  it('tells a video result from a picture', () => {
    expect(isVideoResult({ content_type: 'video/mp4' })).toBe(true);
    expect(isVideoResult({ content_type: 'image/jpeg' })).toBe(false);
  });

  it('reads a stored draft back defensively', () => {
    expect(readDraft(null)).toEqual(EMPTY_DRAFT);
    expect(readDraft('{not json')).toEqual(EMPTY_DRAFT);
    const stored = JSON.stringify({ prompt: 'fox', style: 'nope', guidance: 'x', photo: { uuid: 1 } });
    expect(readDraft(stored)).toEqual({ ...EMPTY_DRAFT, prompt: 'fox' });
    expect(readDraft(JSON.stringify(draft({ photo, style: 'toy', seed: '5' })))).toEqual(
      draft({ photo, style: 'toy', seed: '5' }),
    );
  });
});

describe('refused charges', () => {
  it('reads the shortfall of credits.insufficient', () => {
    const error = new ApiError(402, {
      detail: "You don't have enough 2 credits for generation.",
      required: 3,
      balance: 1,
      difference: 2,
      code: 'credits.insufficient',
    });
    expect(readChargeRefusal(error)).toEqual({ kind: 'credits', difference: 2, balance: 1, required: 3 });
  });

  it('reads the free-tier pause of generations.rate_limited', () => {
    const error = new ApiError(429, {
      detail: 'Wait',
      wait_seconds: 12,
      first: 5,
      seconds: 30,
      code: 'generations.rate_limited',
    });
    expect(readChargeRefusal(error)).toEqual({ kind: 'limit', waitSeconds: 12, first: 5, seconds: 30 });
  });

  it('counts the pause from when the refusal arrived', () => {
    expect(pauseEndsAt({ kind: 'limit', waitSeconds: 12, first: 5, seconds: 30, at: 1_000 })).toBe(13_000);
  });

  it('leaves every other error to the form', () => {
    expect(readChargeRefusal(new ApiError(429, { detail: 'x', code: 'common.throttled' }))).toBeNull();
    expect(readChargeRefusal(new TypeError('offline'))).toBeNull();
  });
});

describe('photo uploads', () => {
  it('takes the photo types the server takes, HEIC without a type included', () => {
    expect(isAcceptedPhoto({ type: 'image/jpeg', name: 'a.jpg' })).toBe(true);
    expect(isAcceptedPhoto({ type: '', name: 'IMG_1.HEIC' })).toBe(true);
    expect(isAcceptedPhoto({ type: 'image/gif', name: 'a.gif' })).toBe(false);
    expect(isAcceptedPhoto({ type: 'application/pdf', name: 'a.pdf' })).toBe(false);
  });

  it("says 'File too big' with the server's limit, and names unsupported files", () => {
    const tooBig = new ApiError(413, {
      detail: 'File too big',
      file: ['The file size must not exceed 15 MB'],
      max_mb: 15,
      code: 'uploads.too_big',
    });
    expect(uploadErrorMessage(t, tooBig)).toBe('File too big. The file size must not exceed 15 MB');
    const unsupported = new ApiError(415, { detail: 'Unsupported', code: 'uploads.unsupported_type' });
    expect(uploadErrorMessage(t, unsupported)).toBe('Use a JPEG, PNG, WebP or HEIC photo.');
    expect(uploadErrorMessage(t, new TypeError('Network request failed'))).toBe(
      'No connection to the server. Check your internet and try again.',
    );
  });
});

describe('server field errors of generations', () => {
  it("shows 'Only in English' and the length limit on the prompt, in the user's language", async () => {
    const ru = (await createTestI18n('ru')).t;
    const notEnglish = new ApiError(400, {
      prompt: ['Only in English'],
      code: 'generations.prompt_not_english',
    });
    expect(describeError(t, notEnglish, ['prompt']).fields.prompt).toEqual(['Only in English']);
    expect(describeError(ru, notEnglish, ['prompt']).fields.prompt).toEqual(['Только на английском']);
    const tooLong = new ApiError(400, {
      prompt: ['Maximum number of characters - 1000'],
      code: 'common.validation',
    });
    expect(describeError(t, tooLong, ['prompt']).fields.prompt).toEqual([
      'Maximum number of characters - 1000',
    ]);
    const noEngine = new ApiError(400, {
      mode: ['This server has no engine for face_swap yet.'],
      code: 'generations.mode_unavailable',
    });
    expect(describeError(t, noEngine, ['prompt']).alert).toBe('This mode is not available right now.');
  });
});

describe('the tools’ field errors', () => {
  let ru: TFunction;
  beforeAll(async () => {
    ru = (await createTestI18n('ru')).t;
  });

  it('are shown in the person’s language, not as the server’s English', async () => {
    const { translateFieldMessage } = await import('../../lib/error-messages');
    const cases: Array<[string, string]> = [
      ['Choose ×2 or ×4.', 'Выберите ×2 или ×4.'],
      ['Paint over the part of the picture to change.', 'Закрасьте часть картинки, которую нужно изменить.'],
      ['Choose a colour like #1a2b3c.', 'Выберите цвет.'],
      ['Choose 1 to 4 pictures.', 'Выберите от 1 до 4 картинок.'],
      ['Choose 1:1, 4:5, 3:4, 2:3, 9:16, 16:9.', 'Выберите один из предложенных размеров.'],
      ['Choose where to add canvas, or a frame shape.', 'Выберите, где добавить холст, или размер.'],
    ];
    for (const [server, shown] of cases) expect(translateFieldMessage(ru, server)).toBe(shown);
  });
});

describe('the description field', () => {
  it('is not offered by a tool that never reads one, with or without its photo', async () => {
    const { usesPrompt } = await import('./generation-draft');
    for (const mode of ['upscale', 'restore', 'try_on'] as const) {
      expect(usesPrompt(mode, { photo: null }), mode).toBe(false);
    }
    expect(usesPrompt('editing', { photo: null })).toBe(true);
    expect(usesPrompt('background', { photo: null, settings: { background: 'scene' } })).toBe(true);
  });
});
