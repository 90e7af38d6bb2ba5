import { postStoragePrefix } from '../../shared/storage/storage-keys.js';

/** Every storage prefix that holds one person's files: their uploads, model photos and results. */
export function ownerStoragePrefixes(userId: number): string[] {
  return [`uploads/${userId}/`, `models/${userId}/`, `results/${userId}/`];
}

/**
 * Where a kept post's files go when its author deletes the account: from the author's
 * `results/<user>/<generation>/…` to `posts/<post uuid>/…` (the file's own name kept). Returns the
 * copies to make and the post image and generation result rewritten to the new keys; a key outside
 * the author's results is left as it is.
 */
export function movedPostFiles(
  userId: number,
  postUuid: string,
  image: unknown,
  result: unknown,
): { copies: Array<{ from: string; to: string }>; image: unknown; result: unknown } {
  const ownPrefix = `results/${userId}/`;
  const copies = new Map<string, string>();
  const moveKey = (key: string): string => {
    if (!key.startsWith(ownPrefix)) return key;
    const name = key.slice(key.lastIndexOf('/') + 1);
    const to = `${postStoragePrefix(postUuid)}${name}`;
    copies.set(key, to);
    return to;
  };
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value).map(([name, inner]) => [
          name,
          typeof inner === 'string' && /key$/i.test(name) ? moveKey(inner) : rewrite(inner),
        ]),
      );
    }
    return value;
  };
  const movedImage = rewrite(image);
  const movedResult = rewrite(result);
  return { copies: [...copies].map(([from, to]) => ({ from, to })), image: movedImage, result: movedResult };
}
