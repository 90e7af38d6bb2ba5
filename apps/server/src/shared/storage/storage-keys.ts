/** Keys are relative paths of plain segments: no `..`, no empty or dot segments, nothing odd. */
const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,300}$/;

export function assertSafeStorageKey(key: string): string {
  if (!SAFE_KEY.test(key) || key.split('/').some((part) => part === '..' || part === '.' || part === '')) {
    throw new Error(`Unsafe storage key: ${key}`);
  }
  return key;
}

/** The name a download is saved under, reduced to characters every browser and store accept. */
export function safeDownloadName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, '_');
}

/**
 * Where a post keeps files of its own: a kept post of a deleted account gets copies here, so
 * nothing of it stays under its author's prefixes (see account deletion).
 */
export function postStoragePrefix(postUuid: string): string {
  return `posts/${postUuid}/`;
}
