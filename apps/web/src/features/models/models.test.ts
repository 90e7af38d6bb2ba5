import { beforeAll, describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import { GenerationStatus } from '@mirra/contracts';
import { ApiError } from '../../lib/api-error';
import type { TGenerationStatus, TModelPhotoVerdict } from '../../lib/api-types';
import { describeError } from '../../lib/error-messages';
import { createTestI18n } from '../../test/i18n';
import {
  countGoodPhotos,
  describeVerdict,
  needsVariety,
  photosStillNeeded,
  summarizeTipMix,
  type PhotoJudgement,
  type PhotoLook,
} from './model-photos';
import {
  applyModelEvent,
  canAddPhotos,
  canTrain,
  IDLE_DIALOG,
  isDialogOpen,
  modelPhase,
  reduceTrainingDialog,
  trainingErrorKey,
  trainingPercent,
  type TrainingDialog,
  type TrainingDialogAction,
} from './model-status';
import {
  isUploading,
  nextBatch,
  reduceUploads,
  spreadProgress,
  storedItemIds,
  type UploadAction,
  type UploadItem,
} from './upload-queue';

const { NEW, IN_QUEUE, IN_PROGRESS, COMPLETED, ERROR, FAILED } = GenerationStatus;
const MB = 1024 * 1024;

let en: TFunction;
let ru: TFunction;
beforeAll(async () => {
  [en, ru] = await Promise.all([createTestI18n('en'), createTestI18n('ru')]).then((all) =>
    all.map((i) => i.t),
  );
});

const good = (...tips: PhotoJudgement['tips']): PhotoJudgement => ({ ok: true, problems: [], tips });
const bad = (...problems: PhotoJudgement['problems']): PhotoJudgement => ({ ok: false, problems, tips: [] });

describe('a photo’s verdict in the user’s language', () => {
  it('says why a photo does not count, and what a photo is', () => {
    expect(describeVerdict(en, bad('face.none'))).toEqual({ problems: ['No face found'], tips: [] });
    expect(
      describeVerdict(en, { ok: false, problems: ['face.multiple', 'photo.blurry'], tips: [] }).problems,
    ).toEqual(['Other people in the photo', 'Blurry: hold still or clean the lens']);
    expect(describeVerdict(en, good('pose.side', 'face.glasses')).tips).toEqual([
      'Side view',
      'With glasses',
    ]);
    expect(describeVerdict(ru, bad('face.none', 'file.too_big'))).toEqual({
      problems: ['Лицо не найдено', 'Файл слишком большой'],
      tips: [],
    });
  });

  it('counts the good photos toward the minimum', () => {
    const photos = [good('pose.front'), bad('face.none'), good('pose.side'), bad('face.different_person')];
    expect(countGoodPhotos(photos)).toBe(2);
    expect(photosStillNeeded(2, 15)).toBe(13);
    expect(photosStillNeeded(17, 15)).toBe(0);
    expect(en('model.needMore', { count: 13 })).toBe('Add 13 more good photos to start training.');
    expect(ru('model.needMore', { count: 2 })).toBe('Добавьте ещё 2 подходящих фото, чтобы начать обучение.');
    expect(en('model.goodCount', { count: 2, min: 15 })).toBe('Good photos: 2 of 15 needed');
    expect(en('model.goodCount', { count: 15, min: 15 })).toBe('Good photos: 15 of 15 needed');
    expect(ru('model.goodCount', { count: 15, min: 15 })).toBe('Подходящих фото: 15 из 15 нужных');
  });

  it('words the counter as "count of min needed" in every language, for every plural form', async () => {
    for (const language of ['ru', 'en', 'de', 'uk', 'kk', 'az'] as const) {
      const { t } = await createTestI18n(language);
      for (const count of [0, 1, 2, 5, 15, 21]) {
        const text = t('model.goodCount', { count, min: 15 });
        expect(text, `${language} ${count}`).toContain(String(count));
        expect(text, `${language} ${count}`).toContain('15');
        expect(text, `${language} ${count}`).not.toMatch(/\{\{|goodCount/);
      }
    }
  });

  it('says why a copy of a photo already in the model is refused', () => {
    expect(describeVerdict(en, bad('photo.duplicate')).problems).toEqual([
      'Already in the model: the same photo, or a copy of it',
    ]);
    expect(describeVerdict(ru, bad('photo.duplicate')).problems).toEqual([
      'Уже есть в модели: это же фото или его копия',
    ]);
  });

  it('asks for variety when most good photos share one pose and one light', () => {
    const look = (pose: 'front' | 'side', lowLight = false, ok = true): PhotoLook => ({
      ok,
      problems: ok ? [] : ['photo.duplicate'],
      tips: lowLight ? [`pose.${pose}`, 'photo.low_light'] : [`pose.${pose}`],
      pose,
    });
    const sameLook = Array.from({ length: 15 }, () => look('front'));
    expect(needsVariety(sameLook)).toBe(true);
    // Five photos in one pose and light already call for variety; four are too few to say.
    expect(needsVariety(sameLook.slice(0, 5))).toBe(true);
    expect(needsVariety(sameLook.slice(0, 4))).toBe(false);
    // 11 of 15 alike (73%) is varied enough: some from the side, some in low light.
    const varied = [
      ...sameLook.slice(0, 11),
      look('side'),
      look('side'),
      look('front', true),
      look('front', true),
    ];
    expect(needsVariety(varied)).toBe(false);
    // 12 of 15 alike (80%) is not.
    expect(needsVariety([...sameLook.slice(0, 12), look('side'), look('side'), look('front', true)])).toBe(
      true,
    );
    // Refused photos do not count either way.
    expect(needsVariety([...varied, ...Array.from({ length: 30 }, () => look('front', false, false))])).toBe(
      false,
    );
  });

  it('sums up the mix among good photos only, and names the kinds still missing', () => {
    const photos = [
      good('pose.front', 'photo.low_light'),
      good('pose.front', 'photo.low_light', 'face.glasses'),
      good('pose.front'),
      good('pose.side'),
      // A refused photo teaches the model nothing, whatever it shows.
      { ok: false, problems: ['photo.blurry'], tips: ['pose.side', 'face.glasses'] } as PhotoJudgement,
    ];
    expect(summarizeTipMix(photos)).toEqual({
      counts: { 'photo.low_light': 2, 'face.glasses': 1, 'pose.front': 3, 'pose.side': 1 },
      missing: ['face.glasses', 'pose.side'],
    });
    const mixed = [...photos, good('pose.side', 'face.glasses')];
    expect(summarizeTipMix(mixed).missing).toEqual([]);
    expect(summarizeTipMix([]).missing).toEqual([
      'photo.low_light',
      'face.glasses',
      'pose.front',
      'pose.side',
    ]);
  });

  it('translates the models API’s refusals', () => {
    const short = new ApiError(400, {
      code: 'models.not_enough_photos',
      photos: ['Upload at least 15 good photos of yourself to train the model; 3 so far.'],
      reference_count: 3,
      min_photos: 15,
    });
    expect(describeError(ru, short).alert).toBe(ru('errors.models.not_enough_photos'));
    const busy = new ApiError(409, {
      detail: 'The model is training. Its photos can change again when it finishes.',
      code: 'models.training_in_progress',
    });
    expect(describeError(en, busy).alert).toBe('The model is training. Wait until it finishes.');
    const faceSwap = new ApiError(400, {
      code: 'generations.image_required',
      images: ['Upload the photo to put your face on, or describe a scene in the prompt.'],
    });
    expect(describeError(ru, faceSwap, ['images']).fields.images).toEqual([
      'Загрузите фото, на которое перенести ваше лицо, или опишите сцену.',
    ]);
  });
});

// --- Uploads -------------------------------------------------------------------------------------

const file = (id: string, size = MB) => ({ id, name: `${id}.jpg`, size, preview: null });
const verdict = (name: string, fields: Partial<TModelPhotoVerdict> = {}): TModelPhotoVerdict => ({
  uuid: `00000000-0000-4000-8000-${name.padStart(12, '0')}`,
  filename: `${name}.jpg`,
  ok: true,
  problems: [],
  tips: ['pose.front'],
  pose: 'front',
  thumbnail_url: `/api/media/${name}.webp`,
  ...fields,
});
const run = (actions: UploadAction[], from: UploadItem[] = []) => actions.reduce(reduceUploads, from);
const statuses = (items: UploadItem[]) => Object.fromEntries(items.map((item) => [item.id, item.status]));

describe('the upload queue', () => {
  it('sends small batches in the order chosen: a few files, a few megabytes, never an empty batch', () => {
    const items = run([{ type: 'added', files: ['a', 'b', 'c', 'd'].map((id) => file(id)) }]);
    expect(nextBatch(items).map((item) => item.id)).toEqual(['a', 'b', 'c']);
    expect(nextBatch(items, { files: 10, bytes: 2 * MB }).map((item) => item.id)).toEqual(['a', 'b']);
    // A single file larger than a batch still goes (the server says if it is too big).
    const huge = run([{ type: 'added', files: [file('h', 40 * MB), file('s')] }]);
    expect(nextBatch(huge).map((item) => item.id)).toEqual(['h']);
    // Files on their way or judged are not sent again.
    const sending = run([{ type: 'sending', ids: ['a', 'b', 'c'] }], items);
    expect(nextBatch(sending).map((item) => item.id)).toEqual(['d']);
    expect(nextBatch(run([{ type: 'sending', ids: ['d'] }], sending))).toEqual([]);
  });

  it('gives each file of a batch its own progress, from the bytes before it', () => {
    expect(spreadProgress([100, 300], 0)).toEqual([0, 0]);
    expect(spreadProgress([100, 300], 0.25)).toEqual([1, 0]);
    expect(spreadProgress([100, 300], 0.5)).toEqual([1, 1 / 3]);
    expect(spreadProgress([100, 300], 1)).toEqual([1, 1]);
    expect(spreadProgress([100], 1.7)).toEqual([1]);
  });

  it('moves every file from chosen to sent to checked to its own verdict, in the order sent', () => {
    let items = run([
      { type: 'added', files: [file('a', 100), file('b', 300)] },
      { type: 'sending', ids: ['a', 'b'] },
      { type: 'progressed', ids: ['a', 'b'], fraction: 0.5 },
    ]);
    expect(items.map((item) => [item.status, item.progress])).toEqual([
      ['checking', 1],
      ['uploading', 1 / 3],
    ]);
    expect(isUploading(items)).toBe(true);
    // Progress never goes back (a late event).
    items = run([{ type: 'progressed', ids: ['a', 'b'], fraction: 0.3 }], items);
    expect(items[1]!.progress).toBe(1 / 3);
    items = run(
      [
        { type: 'progressed', ids: ['a', 'b'], fraction: 1 },
        {
          type: 'judged',
          ids: ['a', 'b'],
          verdicts: [verdict('a'), verdict('b', { ok: false, problems: ['face.none'] })],
        },
      ],
      items,
    );
    expect(statuses(items)).toEqual({ a: 'judged', b: 'judged' });
    expect(items.map((item) => item.verdict?.ok)).toEqual([true, false]);
    expect(isUploading(items)).toBe(false);
  });

  it('refuses what is not a photo type at once, keeps failures for a retry, and hands stored photos over', () => {
    let items = run([
      { type: 'refused', files: [file('notes')] },
      { type: 'added', files: [file('a'), file('b')] },
      { type: 'sending', ids: ['a', 'b'] },
      { type: 'failed', ids: ['a', 'b'], error: 'Network error' },
    ]);
    expect(items[0]).toMatchObject({
      status: 'judged',
      verdict: { uuid: null, ok: false, problems: ['file.unsupported'] },
    });
    expect(statuses(items)).toEqual({ notes: 'judged', a: 'failed', b: 'failed' });
    expect(nextBatch(items)).toEqual([]);
    items = run([{ type: 'retried', ids: ['a'] }], items);
    expect(items[1]).toMatchObject({ status: 'queued', progress: 0, error: null });
    expect(nextBatch(items).map((item) => item.id)).toEqual(['a']);

    // Once the model's list holds a stored photo, the queue lets go of it; not-stored ones stay.
    items = run(
      [
        { type: 'sending', ids: ['a'] },
        { type: 'judged', ids: ['a'], verdicts: [verdict('a')] },
      ],
      items,
    );
    const handedOver = storedItemIds(items, new Set([verdict('a').uuid!]));
    expect(handedOver).toEqual(['a']);
    expect(run([{ type: 'removed', ids: handedOver }], items).map((item) => item.id)).toEqual(['notes', 'b']);
  });

  it('turns a batch the server answered without a verdict for a file into a failure, not a hang', () => {
    const items = run([
      { type: 'added', files: [file('a'), file('b')] },
      { type: 'sending', ids: ['a', 'b'] },
      { type: 'judged', ids: ['a', 'b'], verdicts: [verdict('a')] },
    ]);
    expect(statuses(items)).toEqual({ a: 'judged', b: 'failed' });
  });
});

// --- Training --------------------------------------------------------------------------------------

const model = (
  status: TGenerationStatus,
  fields: Partial<{ progress: number; error_code: string | null }> = {},
) => ({
  uuid: 'm1',
  status,
  progress: 0,
  error_code: null,
  error_detail: null,
  ...fields,
});

describe('a model’s state', () => {
  it('maps the task statuses to collecting, training, ready and failed', () => {
    expect([NEW, IN_QUEUE, IN_PROGRESS, COMPLETED, ERROR, FAILED].map(modelPhase)).toEqual([
      'collecting',
      'training',
      'training',
      'ready',
      'failed',
      'failed',
    ]);
  });

  it('trains with enough good photos, before training or after a failure; takes photos except while training', () => {
    const withPhotos = (status: TGenerationStatus, count: number) => ({
      status,
      reference_count: count,
      min_photos: 15,
    });
    expect(canTrain(withPhotos(NEW, 14))).toBe(false);
    expect(canTrain(withPhotos(NEW, 15))).toBe(true);
    expect(canTrain(withPhotos(FAILED, 15))).toBe(true);
    expect(canTrain(withPhotos(IN_PROGRESS, 20))).toBe(false);
    expect(canTrain(withPhotos(COMPLETED, 20))).toBe(false);
    expect([NEW, IN_QUEUE, IN_PROGRESS, COMPLETED, ERROR].map(canAddPhotos)).toEqual([
      true,
      false,
      false,
      true,
      true,
    ]);
  });

  it('moves the bar forward only, full only when ready', () => {
    expect(trainingPercent(IN_QUEUE, 0)).toBe(2);
    expect(trainingPercent(IN_PROGRESS, 40)).toBe(40);
    expect(trainingPercent(IN_PROGRESS, 30, 40)).toBe(40);
    expect(trainingPercent(IN_PROGRESS, 100)).toBe(99);
    expect(trainingPercent(COMPLETED, 100)).toBe(100);
    expect(trainingPercent(FAILED, 10, 45)).toBe(45);
  });

  it('applies live events while training, leaving the final state to the full record', () => {
    expect(applyModelEvent(model(IN_QUEUE), { status: IN_PROGRESS, progress: 30 })).toMatchObject({
      status: IN_PROGRESS,
      progress: 30,
    });
    expect(applyModelEvent(model(IN_PROGRESS), { status: COMPLETED, progress: 100 }).status).toBe(
      IN_PROGRESS,
    );
    expect(applyModelEvent(model(COMPLETED), { status: IN_PROGRESS, progress: 5 }).status).toBe(COMPLETED);
  });

  it('names the training failures it knows, and only those', () => {
    expect(trainingErrorKey('models.timeout')).toBe('modelPhotos.trainingErrors.timeout');
    expect(en(trainingErrorKey('models.training_refused')!)).toMatch(/refunded/);
    expect(trainingErrorKey('models.something_new')).toBeNull();
    expect(trainingErrorKey(null)).toBeNull();
  });
});

describe('the training dialog', () => {
  const play = (actions: TrainingDialogAction[]) =>
    actions.reduce<TrainingDialog[]>(
      (states, action) => [...states, reduceTrainingDialog(states.at(-1)!, action)],
      [IDLE_DIALOG],
    );

  it('goes from progress to success, the bar moving forward', () => {
    const states = play([
      { type: 'started', model: model(IN_QUEUE) },
      { type: 'observed', model: model(IN_PROGRESS, { progress: 40 }) },
      { type: 'observed', model: model(IN_PROGRESS, { progress: 20 }) },
      { type: 'observed', model: model(COMPLETED, { progress: 100 }) },
      { type: 'closed' },
    ]);
    expect(states.map((state) => state.step)).toEqual([
      'idle',
      'training',
      'training',
      'training',
      'ready',
      'idle',
    ]);
    expect(states[1]).toMatchObject({ percent: 2, isQueued: true, isOpen: true });
    expect(states[2]).toMatchObject({ percent: 40, isQueued: false });
    expect(states[3]).toMatchObject({ percent: 40 });
    expect(states.map(isDialogOpen)).toEqual([false, true, true, true, true, false]);
  });

  it('may be hidden while training goes on, and still tells the outcome', () => {
    const states = play([
      { type: 'started', model: model(IN_QUEUE) },
      { type: 'closed' },
      { type: 'observed', model: model(IN_PROGRESS, { progress: 70 }) },
      { type: 'observed', model: model(FAILED, { error_code: 'models.timeout' }) },
    ]);
    expect(states.map(isDialogOpen)).toEqual([false, true, false, false, true]);
    expect(states.at(-1)).toEqual({
      step: 'failed',
      uuid: 'm1',
      errorCode: 'models.timeout',
      errorDetail: null,
    });
  });

  it('opens only for the training started here, never for another model or before a start', () => {
    expect(play([{ type: 'observed', model: model(COMPLETED) }]).at(-1)).toBe(IDLE_DIALOG);
    const other = { ...model(COMPLETED), uuid: 'm2' };
    expect(
      play([
        { type: 'started', model: model(IN_QUEUE) },
        { type: 'observed', model: other },
      ]).at(-1),
    ).toMatchObject({
      step: 'training',
      uuid: 'm1',
    });
  });
});
