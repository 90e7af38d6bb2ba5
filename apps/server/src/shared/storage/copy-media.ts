import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Storage } from './storage.js';

export interface CopyReport {
  /** Files found on local disk. */
  found: number;
  /** Copied now and read back with the same size and SHA-256. */
  copied: number;
  /** Already in the target with the same size and SHA-256 (an earlier, interrupted run). */
  alreadyThere: number;
}

/**
 * Copies every file of a local media folder (DATA_DIR/media: each file beside its `.type`) into
 * another store under the same key, for an operator moving to S3. Resumable: a file the target
 * already holds with the same size and SHA-256 is skipped, so running it again after an
 * interruption copies only the rest. Every copy is read back and compared; a mismatch throws.
 */
export async function copyLocalMedia(options: {
  mediaDir: string;
  target: Storage;
  concurrency?: number;
  onProgress?: (done: number, found: number, key: string) => void;
}): Promise<CopyReport> {
  const keys = await listKeys(options.mediaDir);
  const report: CopyReport = { found: keys.length, copied: 0, alreadyThere: 0 };
  let next = 0;
  let done = 0;
  const copyOne = async (key: string) => {
    const file = path.join(options.mediaDir, ...key.split('/'));
    const data = await readFile(file);
    const checksum = sha256(data);
    const existing = await options.target.open(key);
    if (existing && existing.size === data.length && (await streamSha256(existing.read())) === checksum) {
      report.alreadyThere += 1;
      return;
    }
    const contentType = await readFile(`${file}.type`, 'utf8').catch(() => 'application/octet-stream');
    await options.target.put(key, data, contentType.trim());
    const copied = await options.target.open(key);
    if (!copied || copied.size !== data.length || (await streamSha256(copied.read())) !== checksum) {
      throw new Error(`${key}: the copy does not match the original (size or SHA-256)`);
    }
    report.copied += 1;
  };
  const lane = async () => {
    while (next < keys.length) {
      const key = keys[next++]!;
      await copyOne(key);
      done += 1;
      options.onProgress?.(done, keys.length, key);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 8 }, lane));
  return report;
}

/** Storage keys of the files under a local media folder, sorted (no `.type` or unfinished `.tmp`). */
async function listKeys(root: string): Promise<string[]> {
  const keys: string[] = [];
  const walk = async (dir: string, prefix: string) => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      const key = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(path.join(dir, entry.name), key);
      else if (
        entry.isFile() &&
        !/\.(type|tmp)$/.test(entry.name) &&
        (await isFile(path.join(dir, entry.name)))
      )
        keys.push(key);
    }
  };
  await walk(root, '');
  return keys.sort();
}

const isFile = async (file: string) => (await stat(file)).isFile();
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function streamSha256(stream: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
