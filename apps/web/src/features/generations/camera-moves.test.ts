import { describe, expect, it } from 'vitest';
import { CAMERA_MOVES, LANGUAGES } from '@mirra/contracts';
import { createTestI18n } from '../../test/i18n';
import { describeEngineNote } from './engine-notes';
import { buildCreateBody, EMPTY_DRAFT, modeNeeds, readDraft } from './generation-draft';

describe('the camera move of a video', () => {
  it('is offered by the video mode only, and sent with it', () => {
    expect(modeNeeds('video').camera).toBe(true);
    expect(modeNeeds('simple').camera).toBe(false);
    const draft = { ...EMPTY_DRAFT, prompt: 'a beach', settings: { camera: 'orbit' as const } };
    expect(buildCreateBody('video', draft).settings).toEqual({ camera: 'orbit' });
    // Without one chosen the engine chooses: nothing is sent.
    expect(buildCreateBody('video', { ...draft, settings: {} }).settings).toEqual({});
  });

  it('a stored draft keeps a move the contracts offer and drops any other', () => {
    const stored = (camera: string) => JSON.stringify({ ...EMPTY_DRAFT, settings: { camera } });
    expect(readDraft(stored('crane_up')).settings).toEqual({ camera: 'crane_up' });
    expect(readDraft(stored('barrel_roll')).settings).toEqual({});
  });

  it('every move and the refusal of an unknown one are worded in all six languages', async () => {
    const { translateFieldMessage } = await import('../../lib/error-messages');
    const refusals = new Set<string>();
    for (const language of LANGUAGES) {
      const { t } = await createTestI18n(language);
      const refusal = translateFieldMessage(t, 'Choose a camera move.');
      expect(refusal, language).not.toMatch(/fieldErrors|chooseCamera/);
      refusals.add(refusal);
      const names = new Set(CAMERA_MOVES.map((move) => t(`generate.cameraMoves.${move}`)));
      expect(names.size, language).toBe(CAMERA_MOVES.length);
      for (const name of names) expect(name, language).not.toMatch(/generate\./);
      expect(t('generate.camera'), language).not.toMatch(/generate\./);
    }
    // Each language its own words, not English copied.
    expect(refusals.size).toBe(LANGUAGES.length);
  });

  it('the note of the move made names it in the reader’s language', async () => {
    const { t } = await createTestI18n('ru');
    const note = {
      code: 'video.camera_preset' as const,
      text: 'Camera move: pan left.',
      params: { camera: 'pan_left' },
    };
    expect(describeEngineNote(t, note)).toBe(`Движение камеры: ${t('generate.cameraMoves.pan_left')}.`);
    expect(describeEngineNote(t, note)).toContain('Панорама влево');
  });
});
