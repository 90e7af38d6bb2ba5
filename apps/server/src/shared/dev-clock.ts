import { readFileSync } from 'node:fs';

/**
 * A clock that runs ahead of real time by the number of seconds written in `file` (none or
 * unreadable: real time). For development and browser tests only: every process of the server
 * (API and workers) reads the same file, so a test moves them all at once. Re-read at most every
 * 200 ms.
 */
export function createFileOffsetClock(file: string): () => Date {
  let offsetMs = 0;
  let readAt = 0;
  return () => {
    const now = Date.now();
    if (now - readAt > 200) {
      readAt = now;
      try {
        const seconds = Number(readFileSync(file, 'utf8').trim());
        offsetMs = Number.isFinite(seconds) ? seconds * 1000 : 0;
      } catch {
        offsetMs = 0;
      }
    }
    return new Date(now + offsetMs);
  };
}
