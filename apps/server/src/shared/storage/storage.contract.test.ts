import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Fake, type S3Fake } from '../../fakes/s3.fake.js';
import { parseConfig } from '../config.js';
import { createStorage } from './create-storage.js';
import { createMediaUrls } from './media-urls.js';
import { presignGetUrl } from './s3-presign.js';
import type { Storage } from './storage.js';

let s3: S3Fake;
let dir: string;
beforeAll(async () => {
  s3 = await startS3Fake();
  dir = await mkdtemp(path.join(os.tmpdir(), 'mirra-storage-'));
});
afterAll(async () => {
  await s3.close();
  await rm(dir, { recursive: true, force: true });
});

const stores: Array<[string, () => Storage]> = [
  ['local disk', () => createStorage(parseConfig({ DATA_DIR: dir }).storage)],
  ['S3', () => createStorage(parseConfig({ DATA_DIR: dir, ...s3.env('contract') }).storage)],
];

describe.each(stores)('%s store', (_name, make) => {
  let storage: Storage;
  beforeAll(async () => {
    storage = make();
    await storage.ready?.();
  });

  it('keeps bytes and type under a key, and tells a missing key by null', async () => {
    const bytes = randomBytes(5000);
    await storage.put('results/1/a/original.png', bytes, 'image/png');
    const read = await storage.get('results/1/a/original.png');
    expect(read?.contentType).toBe('image/png');
    expect(read?.data.equals(bytes)).toBe(true);
    expect(await storage.get('results/1/a/missing.png')).toBeNull();
    expect(await storage.open('results/1/a/missing.png')).toBeNull();
  });

  it('opens a file for streaming, whole or a byte range', async () => {
    await storage.put('results/1/b/clip.mp4', Buffer.from('0123456789'), 'video/mp4');
    const file = await storage.open('results/1/b/clip.mp4');
    expect(file).toMatchObject({ size: 10, contentType: 'video/mp4' });
    expect(file!.modifiedAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(await text(file!.read())).toBe('0123456789');
    expect(await text(file!.read({ start: 2, end: 5 }))).toBe('2345');
  });

  it('deletes one key, and every key under a prefix (whole segments only)', async () => {
    await storage.put('models/7/m1/photos/1.jpg', Buffer.from('1'), 'image/jpeg');
    await storage.put('models/7/m1/photos/2.jpg', Buffer.from('2'), 'image/jpeg');
    await storage.put('models/7/m1/aligned/1.png', Buffer.from('3'), 'image/png');
    await storage.put('models/7/m10/photos/1.jpg', Buffer.from('4'), 'image/jpeg');
    await storage.delete('models/7/m1/photos/2.jpg');
    expect(await storage.get('models/7/m1/photos/2.jpg')).toBeNull();
    await storage.delete('models/7/m1/photos/never-there.jpg');

    await storage.deletePrefix('models/7/m1');
    expect(await storage.get('models/7/m1/photos/1.jpg')).toBeNull();
    expect(await storage.get('models/7/m1/aligned/1.png')).toBeNull();
    expect((await storage.get('models/7/m10/photos/1.jpg'))?.data.toString()).toBe('4');
  });

  it('refuses keys that climb out or are odd', async () => {
    await expect(storage.put('../escape.txt', Buffer.from('x'), 'text/plain')).rejects.toThrow(/Unsafe/);
    await expect(storage.get('results//a.png')).rejects.toThrow(/Unsafe/);
  });
});

describe('S3 store: media reach browsers by presigned URLs straight from the store', () => {
  let storage: Storage;
  beforeAll(async () => {
    storage = createStorage(parseConfig({ DATA_DIR: dir, ...s3.env('urls') }).storage);
    await storage.ready?.();
  });

  it('hands out an expiring presigned GET URL that the store answers, with ranges and the download name', async () => {
    const bytes = randomBytes(3000);
    await storage.put('results/9/x/original.png', bytes, 'image/png');
    const urls = createMediaUrls('secret-secret-secret-secret-secret', {
      defaultTtlSeconds: 3600,
      direct: storage.directUrls,
    });
    const now = new Date();
    const url = urls.url('results/9/x/original.png', now);
    // The object's name hides the key's owner and ids; only the folder and extension show.
    expect(url).toMatch(
      new RegExp(`^${s3.endpoint}/${s3.bucket}/urls/results/[\\w-]{22}/[\\w-]{22}/[\\w-]{22}\\.png\\?X-Amz-`),
    );
    expect(url).not.toContain('/9/');
    // One URL per file for a while, so browsers and CDNs can cache it.
    expect(urls.url('results/9/x/original.png', new Date(now.getTime() + 1000))).toBe(url);

    const whole = await fetch(url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);
    const part = await fetch(url, { headers: { range: 'bytes=10-19' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(10, 20))).toBe(true);

    const download = await fetch(urls.url('results/9/x/original.png', now, { download: 'mirra photo.png' }));
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="mirra_photo.png"');
  });

  it('keeps the bucket private: no URL without a valid signature, none after expiry', async () => {
    await storage.put('uploads/3/u.jpg', Buffer.from('private'), 'image/jpeg');
    const url = storage.directUrls!.signNow('uploads/3/u.jpg', new Date(Date.now() + 3600_000), {
      now: new Date(),
    })!;
    expect((await fetch(url.split('?')[0]!)).status).toBe(403);
    const listing = await fetch(`${s3.endpoint}/${s3.bucket}?list-type=2`);
    expect(listing.status).toBe(403);

    expect((await fetch(url)).status).toBe(200);
    // Another object under the same signature is refused.
    const other = storage.directUrls!.signNow('uploads/3/v.jpg', new Date(Date.now() + 3600_000), {
      now: new Date(),
    })!;
    expect((await fetch(`${other.split('?')[0]}?${url.split('?')[1]}`)).status).toBe(403);
    const expired = storage.directUrls!.signNow('uploads/3/u.jpg', new Date(Date.now() - 7200_000), {
      now: new Date(Date.now() - 3 * 3600_000),
    })!;
    expect((await fetch(expired)).status).toBe(403);
  });

  it('signs exactly as the official AWS presigner does', async () => {
    const credentials = {
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
    };
    const client = new S3Client({
      region: 'eu-central-1',
      endpoint: 'https://storage.example.net',
      forcePathStyle: true,
      credentials,
    });
    const signingDate = new Date('2026-11-25T01:00:00Z');
    const official = new URL(
      await getSignedUrl(
        client,
        new GetObjectCommand({
          Bucket: 'media',
          Key: 'results/1/a b/original.png',
          ResponseContentDisposition: 'attachment; filename="x.png"',
        }),
        { expiresIn: 7200, signingDate },
      ),
    );
    const query: Record<string, string> = {};
    for (const [name, value] of official.searchParams) if (!name.startsWith('X-Amz-')) query[name] = value;
    const ours = new URL(
      presignGetUrl({
        objectUrl: new URL('https://storage.example.net/media/results/1/a%20b/original.png'),
        region: 'eu-central-1',
        credentials,
        signedAt: signingDate,
        expiresInSeconds: 7200,
        query,
      }),
    );
    expect(ours.pathname).toBe(official.pathname);
    expect(Object.fromEntries(ours.searchParams)).toEqual(Object.fromEntries(official.searchParams));
  });

  it('puts a CDN base in front of the presigned path and query when MEDIA_CDN_URL is set', async () => {
    const behindCdn = createStorage(
      parseConfig({ DATA_DIR: dir, ...s3.env('urls'), MEDIA_CDN_URL: 'https://cdn.example.net' }).storage,
    );
    await behindCdn.ready?.();
    const url = behindCdn.directUrls!.signNow('results/9/x/original.png', new Date(Date.now() + 3600_000), {
      now: new Date(),
    })!;
    expect(url).toMatch(
      /^https:\/\/cdn\.example\.net\/mirra-test\/urls\/results\/[\w-]+\/[\w-]+\/[\w-]+\.png\?X-Amz-/,
    );
    // The CDN forwards to the store as it is: the same path and query work there.
    expect((await fetch(`${s3.endpoint}${url.slice('https://cdn.example.net'.length)}`)).status).toBe(200);
  });
});

describe('S3 store started while the store is unreachable', () => {
  it('is not ready, then reads its naming secret once the store answers, with no restart', async () => {
    // A port nothing listens on yet: the node starts before the store does.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const endpoint = `http://127.0.0.1:${port}`;
    const storage = createStorage(
      parseConfig({
        DATA_DIR: dir,
        STORAGE_URL: `s3://mirra-test/late?region=us-east-1&endpoint=${encodeURIComponent(endpoint)}&forcePathStyle=true`,
        AWS_ACCESS_KEY_ID: s3.accessKeyId,
        AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
      }).storage,
    );
    await expect(storage.ready!()).rejects.toThrow();
    const late = await startS3Fake({ port });
    try {
      await storage.ready!();
      await storage.put('results/1/late/original.png', Buffer.from('late'), 'image/png');
      expect((await storage.get('results/1/late/original.png'))?.data.toString()).toBe('late');
    } finally {
      await late.close();
    }
  });
});
