import type { AppDeps } from '../app/deps.js';

/**
 * Which test files touch stored media, so the second server pass (TEST_STORAGE=s3) runs exactly
 * those (src/test/s3-files.json) and the local-disk pass refuses a new one left off that list
 * (storage-use-guard.ts). A file counts when its test apps put, read, delete or link (sign, seal,
 * resolve) media, or hand their storage settings to a child process; readiness checks don't count,
 * every app makes one.
 */
const USED = Symbol.for('mirra.test.storageUsed');
type WithFlag = typeof globalThis & { [USED]?: boolean };

export function recordStorageUse(): void {
  (globalThis as WithFlag)[USED] = true;
}

export function takeStorageUse(): boolean {
  const used = (globalThis as WithFlag)[USED] === true;
  (globalThis as WithFlag)[USED] = false;
  return used;
}

/** Wraps, in place, every way an app reaches its files, so whoever already holds these objects records too. */
export function recordStorageUseOf(deps: Pick<AppDeps, 'storage' | 'mediaUrls'>): void {
  const { storage, mediaUrls } = deps;
  wrap(storage, ['put', 'get', 'open', 'delete', 'deletePrefix']);
  if (storage.directUrls) wrap(storage.directUrls, ['sign', 'signNow']);
  wrap(mediaUrls, ['url', 'resolve']);
}

function wrap<T extends object>(target: T, names: Array<keyof T & string>): void {
  for (const name of names) {
    const original = target[name];
    if (typeof original !== 'function') continue;
    Object.assign(target, {
      [name]: (...args: unknown[]) => {
        recordStorageUse();
        return (original as (...a: unknown[]) => unknown).apply(target, args);
      },
    });
  }
}
