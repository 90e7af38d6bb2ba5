import { useCallback, useEffect, useState } from 'react';
import { draftStorage, DRAFT_KEY_PREFIX as PREFIX } from '../draft-storage';
import { EMPTY_DRAFT, readDraft, type GenerationDraft } from '../generation-draft';

/**
 * The generate screen's inputs, kept for the tab's session under the page's address: a trip to
 * sign in, to /upload/, or a reload brings back everything typed and chosen. A description from
 * the link (`?prompt=`) fills the field when it is empty; a model named by the link (`?model=`,
 * e.g. "Create a photo" after training) is the one chosen.
 */
export function useGenerationDraft(
  key: string,
  fromLink: { prompt: string; modelUuid?: string | null } = { prompt: '' },
) {
  const [draft, setDraft] = useState<GenerationDraft>(() => {
    const stored = readDraft(draftStorage()?.getItem(PREFIX + key) ?? null);
    const withPrompt = stored.prompt || !fromLink.prompt ? stored : { ...stored, prompt: fromLink.prompt };
    return fromLink.modelUuid ? { ...withPrompt, modelUuid: fromLink.modelUuid } : withPrompt;
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
