import { useCallback, useEffect, useState } from 'react';
import { draftStorage, DRAFT_KEY_PREFIX as PREFIX } from '../draft-storage';
import type { TStyle } from '../../../lib/api-types';
import { EMPTY_DRAFT, readDraft, type GenerationDraft } from '../generation-draft';

/**
 * The generate screen's inputs, kept for the tab's session under the page's address: a trip to
 * sign in, to /upload/, or a reload brings back everything typed and chosen. A description from
 * the link (`?prompt=`, or an idea's) fills the field when it is empty, an idea's style is chosen
 * in a new draft; a model named by the link (`?model=`, e.g. "Create a photo" after training) is the
 * one chosen.
 */
export function useGenerationDraft(
  key: string,
  fromLink: { prompt: string; modelUuid?: string | null; style?: TStyle | null } = { prompt: '' },
) {
  const [draft, setDraft] = useState<GenerationDraft>(() => {
    const raw = draftStorage()?.getItem(PREFIX + key) ?? null;
    const stored = readDraft(raw);
    const withPrompt = stored.prompt || !fromLink.prompt ? stored : { ...stored, prompt: fromLink.prompt };
    // A style from the link (an idea) is the first choice; once the draft is kept, it is the person's.
    const withStyle = fromLink.style && raw === null ? { ...withPrompt, style: fromLink.style } : withPrompt;
    return fromLink.modelUuid ? { ...withStyle, modelUuid: fromLink.modelUuid } : withStyle;
  });
  useEffect(() => {
    try {
      draftStorage()?.setItem(PREFIX + key, JSON.stringify(draft));
    } catch {
      // A full or blocked storage only loses the draft on reload.
    }
  }, [key, draft]);
  const update = useCallback(
    (patch: Partial<GenerationDraft>) => setDraft((current) => ({ ...current, ...patch })),
    [],
  );
  const reset = useCallback(() => setDraft(EMPTY_DRAFT), []);
  return { draft, update, reset };
}
