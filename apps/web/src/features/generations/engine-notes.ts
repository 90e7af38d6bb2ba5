import type { TFunction } from 'i18next';
import type { TGenerationNote } from '../../lib/api-types';

/**
 * A note of what the engine did, in the user's language: its code worded by the catalogue with the
 * note's params (a strength or style named in that language too). A note without a code (results
 * from before codes, or an engine that has none) is the engine's own English text.
 */
export function describeEngineNote(t: TFunction, note: TGenerationNote): string {
  if (!note.code) return note.text;
  const params: Record<string, string | number> = { ...note.params };
  if (typeof params.strength === 'string') {
    params.strength = t(`engineNotes.strength.${params.strength}`, { defaultValue: params.strength });
  }
  if (typeof params.camera === 'string') {
    params.camera = t(`generate.cameraMoves.${params.camera}`, { defaultValue: params.camera });
  }
  if (typeof params.style === 'string') {
    params.style = t(`styles.${params.style}`, { defaultValue: params.style });
  }
  return t(`engineNotes.${note.code}`, { ...params, defaultValue: note.text });
}
