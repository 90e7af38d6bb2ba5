/**
 * Where the generate screens keep their drafts: the tab's sessionStorage, one key per address.
 * Dependency-free, because the app shell imports it to forget drafts when the person changes.
 */
export const DRAFT_KEY_PREFIX = 'mirra/generate-draft:';

export function draftStorage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

/** Forgets every generate screen's draft of this tab: they belong to the person who typed them. */
export function forgetGenerationDrafts(): void {
  const storage = draftStorage();
  if (!storage) return;
  const keys = Array.from({ length: storage.length }, (_, index) => storage.key(index));
  for (const key of keys) if (key?.startsWith(DRAFT_KEY_PREFIX)) storage.removeItem(key);
}
