import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Storage } from './storage.js';
import { assertSafeStorageKey } from './storage-keys.js';

/** Files under one folder; the content type is kept beside each file. Writes are atomic. */
export function createLocalStorage(root: string): Storage {
  const resolve = (key: string) => path.join(root, assertSafeStorageKey(key));
  return {
    async put(key, data, contentType) {
      const file = resolve(key);
      await mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${randomUUID()}.tmp`;
      await writeFile(tmp, data);
      await writeFile(`${file}.type`, contentType);
      await rename(tmp, file);
    },
    async get(key) {
      const file = resolve(key);
      try {
        const [data, contentType] = await Promise.all([readFile(file), readFile(`${file}.type`, 'utf8')]);
        return { data, contentType };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async open(key) {
      const file = resolve(key);
      try {
        const [info, contentType] = await Promise.all([stat(file), readFile(`${file}.type`, 'utf8')]);
        return {
          size: info.size,
          contentType,
          modifiedAt: info.mtime,
          read: (range) => createReadStream(file, range),
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async delete(key) {
      const file = resolve(key);
      await rm(file, { force: true });
      await rm(`${file}.type`, { force: true });
    },
    async deletePrefix(prefix) {
      await rm(resolve(prefix.replace(/\/+$/, '')), { recursive: true, force: true });
    },
  };
}
