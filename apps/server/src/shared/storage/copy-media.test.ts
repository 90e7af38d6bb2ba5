import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Fake, type S3Fake } from '../../fakes/s3.fake.js';
import { parseConfig } from '../config.js';
import { copyLocalMedia } from './copy-media.js';
import { createStorage } from './create-storage.js';
import { createLocalStorage } from './local-storage.js';
import type { Storage } from './storage.js';

let s3: S3Fake;
let dir: string;
let local: Storage;
let target: Storage;
const files = new Map<string, { data: Buffer; type: string }>();

beforeAll(async () => {
  s3 = await startS3Fake();
  dir = await mkdtemp(path.join(os.tmpdir(), 'mirra-copy-media-'));
  local = createLocalStorage(dir);
  for (let i = 0; i < 12; i++) {
    const key = i % 3 === 0 ? `uploads/${i}/photo.jpg` : `results/${i % 2}/g${i}/w${256 * i}.webp`;
    const file = { data: randomBytes(1000 + i * 500), type: i % 3 === 0 ? 'image/jpeg' : 'image/webp' };
    files.set(key, file);
    await local.put(key, file.data, file.type);
  }
  target = createStorage(parseConfig({ DATA_DIR: dir, ...s3.env('moved') }).storage);
  await target.ready?.();
});
afterAll(async () => {
  await s3.close();
  await rm(dir, { recursive: true, force: true });
});

describe('npm run storage:migrate (copyLocalMedia)', () => {
  it('resumes an interrupted copy, verifies every file, and a repeat run copies nothing', async () => {
    // The first run dies after four files.
    let puts = 0;
    const failing: Storage = {
      ...target,
      put: async (key, data, type) => {
        if (++puts > 4) throw new Error('connection reset');
        await target.put(key, data, type);
      },
    };
    await expect(copyLocalMedia({ mediaDir: dir, target: failing, concurrency: 1 })).rejects.toThrow(
      'connection reset',
    );

    const second = await copyLocalMedia({ mediaDir: dir, target });
    expect(second).toEqual({ found: 12, copied: 8, alreadyThere: 4 });
    for (const [key, file] of files) {
      const copied = await target.get(key);
      expect(copied?.contentType).toBe(file.type);
      expect(copied?.data.equals(file.data)).toBe(true);
    }

    expect(await copyLocalMedia({ mediaDir: dir, target })).toEqual({
      found: 12,
      copied: 0,
      alreadyThere: 12,
    });
  });

  it('copies again a file whose copy differs (same size, other bytes)', async () => {
    const [key, file] = [...files][1]!;
    await target.put(key, randomBytes(file.data.length), file.type);
    expect(await copyLocalMedia({ mediaDir: dir, target })).toEqual({
      found: 12,
      copied: 1,
      alreadyThere: 11,
    });
    expect((await target.get(key))?.data.equals(file.data)).toBe(true);
  });

  it('fails loudly when a copy reads back different', async () => {
    const lying: Storage = {
      ...target,
      put: async (key, data, type) => target.put(key, Buffer.from(data).reverse(), type),
    };
    const [key, file] = [...files][2]!;
    await target.delete(key);
    await expect(copyLocalMedia({ mediaDir: dir, target: lying })).rejects.toThrow(
      /does not match the original/,
    );
    await target.put(key, file.data, file.type);
  });
});
