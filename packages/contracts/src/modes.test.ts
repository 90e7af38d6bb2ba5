import { describe, expect, it } from 'vitest';
import {
  GENERATION_MODES,
  MODE_DECLARATIONS,
  MODE_PRICE_KEYS,
  VIDEO_DURATION_DEFAULT,
  billedSeconds,
  jobKindOf,
  jobKindsOf,
  keepModeInputs,
  missingInputs,
  photoCountOf,
  readsPrompt,
} from './modes.js';

describe('mode declarations', () => {
  it('declares each mode and each price key once, each mode with a job', () => {
    expect(new Set(GENERATION_MODES).size).toBe(MODE_DECLARATIONS.length);
    expect(new Set(MODE_PRICE_KEYS).size).toBe(MODE_DECLARATIONS.length);
    for (const mode of GENERATION_MODES) expect(jobKindsOf(mode).length).toBeGreaterThan(0);
  });

  it('a mode without a photo job takes a photo, one without a no-photo job needs one', () => {
    for (const mode of MODE_DECLARATIONS) {
      const { min, max } = photoCountOf(mode.id);
      expect(min === 1).toBe(mode.jobs.withoutPhoto === null);
      expect(max === 0).toBe(mode.jobs.withPhoto === null);
    }
  });

  it('says what a request lacks, by what each mode declares', () => {
    const empty = { prompt: ' ', imageCount: 0, style: null, modelUuid: null };
    const missing = Object.fromEntries(GENERATION_MODES.map((mode) => [mode, missingInputs(mode, empty)]));
    expect(missing).toEqual({
      simple: ['prompt'],
      face_swap: ['model_uuid', 'images_or_prompt'],
      editing: ['images', 'prompt'],
      styling: ['images', 'style'],
      video: ['images_or_prompt'],
      upscale: ['images'],
      restore: ['images'],
      background: ['images'],
      inpaint: ['settings.mask', 'images'],
      outpaint: ['settings.extend', 'images'],
      try_on: ['settings.garment', 'images'],
      talking_photo: ['images', 'prompt'],
      photo_pack: ['settings.pack', 'model_uuid'],
    });
    // What goes behind a person needs its colour or its scene's description.
    const photo = { ...empty, imageCount: 1 };
    expect(missingInputs('background', { ...photo, settings: { background: 'colour' } })).toEqual([
      'settings.colour',
    ]);
    expect(missingInputs('background', { ...photo, settings: { background: 'scene' } })).toEqual(['prompt']);
    expect(missingInputs('background', { ...photo, settings: { background: 'blur' } })).toEqual([]);
    // Canvas is added in a direction or to a frame shape.
    expect(missingInputs('outpaint', { ...photo, aspect: '16:9' })).toEqual([]);
    expect(missingInputs('outpaint', { ...photo, settings: { extend: 'left' } })).toEqual([]);
    // A talking photo says its text, or a recorded voice instead.
    expect(missingInputs('talking_photo', { ...photo, settings: { voice: 'v' } })).toEqual([]);
    expect(missingInputs('talking_photo', { ...photo, prompt: 'Привет' })).toEqual([]);
    // A photo or a description: either one is enough.
    expect(missingInputs('video', { ...empty, prompt: 'waves at dusk' })).toEqual([]);
    expect(missingInputs('face_swap', { ...empty, imageCount: 1, modelUuid: 'm' })).toEqual([]);
    expect(missingInputs('styling', { ...empty, imageCount: 1, style: 'oil' })).toEqual([]);
  });

  it('keeps only what the mode reads', () => {
    const body = {
      mode: 'simple' as const,
      prompt: 'a cabin',
      images: [] as string[],
      style: 'oil',
      model_uuid: 'm',
      duration: 10,
      aspect: '1:1',
    };
    expect(keepModeInputs(body)).toMatchObject({
      style: null,
      model_uuid: null,
      duration: null,
      // A picture's frame shape is kept for a mode that makes pictures in one.
      aspect: '1:1',
      count: 1,
      settings: {},
    });
    expect(keepModeInputs({ ...body, mode: 'styling' })).toMatchObject({ style: 'oil', model_uuid: null });
    // A picture's shape a video does not offer is dropped; a tool keeps only its own settings.
    expect(keepModeInputs({ ...body, mode: 'video', aspect: '4:5' }).aspect).toBeNull();
    expect(
      keepModeInputs({
        ...body,
        mode: 'upscale',
        images: ['p'],
        count: 3,
        settings: { scale: 4, mask: 'm' },
      }),
    ).toMatchObject({ prompt: '', aspect: null, count: 1, settings: { scale: 4 } });
    expect(keepModeInputs({ ...body, mode: 'simple', count: 4 }).count).toBe(4);
    // An optional setting left out is stored as what the tool does without it.
    expect(keepModeInputs({ ...body, mode: 'upscale', images: ['p'] }).settings).toEqual({ scale: 2 });
    // A background tool reads the description only for a scene, and a colour only for a colour.
    const background = { ...body, mode: 'background' as const, images: ['p'] };
    expect(
      keepModeInputs({ ...background, settings: { background: 'blur', colour: '#ffffff' } }),
    ).toMatchObject({
      prompt: '',
      settings: { background: 'blur' },
    });
    expect(keepModeInputs({ ...background, settings: { background: 'scene' } }).prompt).toBe('a cabin');
    expect(keepModeInputs({ ...body, mode: 'video' })).toMatchObject({
      duration: 10,
      aspect: '1:1',
      style: null,
    });
    // Face swap onto a photo reads no description; without a photo the description is the scene.
    expect(keepModeInputs({ ...body, mode: 'face_swap', images: ['p'] })).toMatchObject({
      prompt: '',
      model_uuid: 'm',
    });
    expect(keepModeInputs({ ...body, mode: 'face_swap' }).prompt).toBe('a cabin');
    expect(readsPrompt('video', 1)).toBe(true);
  });

  it('charges per second only what renders per second, the default length when none is asked', () => {
    expect(billedSeconds('video', null)).toBe(VIDEO_DURATION_DEFAULT);
    expect(billedSeconds('video', 10)).toBe(10);
    expect(billedSeconds('simple', 10)).toBeNull();
  });

  it('picks the job by whether a photo came', () => {
    expect(jobKindOf('face_swap', 1)).toBe('swap_face');
    expect(jobKindOf('face_swap', 0)).toBe('face_photo');
    expect(jobKindOf('video', 0)).toBe('text_to_video');
    expect(jobKindOf('editing', 0)).toBeNull();
  });
});
