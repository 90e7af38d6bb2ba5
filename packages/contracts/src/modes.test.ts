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
    });
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
      aspect: null,
    });
    expect(keepModeInputs({ ...body, mode: 'styling' })).toMatchObject({ style: 'oil', model_uuid: null });
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
