import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { recordStorageUse } from './storage-use.js';
import type { TestApp } from './test-app.js';

/**
 * Every object in a test app's store, whatever kind it is: files under the local media folder,
 * or object names under the app's own prefix in the S3 bucket (names are hashed there, so a test
 * compares listings taken before and after, never keys). Counts as using the store (the S3 pass).
 */
export async function listStoredObjects(t: TestApp): Promise<Set<string>> {
  const config = t.deps.config.storage;
  recordStorageUse();
  if (config.kind === 'local') return new Set(await walk(config.dir, ''));
  const client = (t.deps.storage as unknown as { client: S3Client }).client;
  const names = new Set<string>();
  let token: string | undefined;
  do {
    const page = await client.send(
      new ListObjectsV2Command({ Bucket: config.bucket, Prefix: config.prefix, ContinuationToken: token }),
    );
    for (const item of page.Contents ?? []) if (item.Key) names.add(item.Key);
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return names;
}

async function walk(root: string, relative: string): Promise<string[]> {
  const entries = await readdir(path.join(root, relative), { withFileTypes: true }).catch(() => []);
  const found: string[] = [];
  for (const entry of entries) {
    const name = relative ? `${relative}/${entry.name}` : entry.name;
    if (entry.isDirectory()) found.push(...(await walk(root, name)));
    else found.push(name);
  }
  return found;
}
