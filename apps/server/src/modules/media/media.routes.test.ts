import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Fake, type S3Fake } from '../../fakes/s3.fake.js';
import { createMediaUrls } from '../../shared/storage/media-urls.js';
import { createTestApp, TEST_JWT_SECRET, type TestApp } from '../../test/test-app.js';

let t: TestApp;
const KEY = 'results/media-test/clip.mp4';
const BYTES = randomBytes(200_000);
let url: string;

beforeAll(async () => {
  // Streaming is local disk's way; an S3 store serves files itself (below).
  t = await createTestApp({ env: { STORAGE_URL: '' } });
  await t.deps.storage.put(KEY, BYTES, 'video/mp4');
  url = t.deps.mediaUrls.url(KEY, t.deps.now());
  // The route streams; reading a whole file into memory is not allowed.
  t.deps.storage.get = () => Promise.reject(new Error('media must be streamed, not read whole'));
});
afterAll(() => t.close());

describe('GET /api/media/<key>', () => {
  it('streams the whole file with its length, type and a version tag', async () => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('video/mp4');
    expect(response.headers['content-length']).toBe(String(BYTES.length));
    expect(response.headers['accept-ranges']).toBe('bytes');
    expect(response.headers['etag']).toMatch(/^".+"$/);
    expect(response.rawPayload.equals(BYTES)).toBe(true);
  });

  it('answers a byte range with 206 and just those bytes (seeking in a video player)', async () => {
    const response = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=1000-1999' } });
    expect(response.statusCode).toBe(206);
    expect(response.headers['content-range']).toBe(`bytes 1000-1999/${BYTES.length}`);
    expect(response.headers['content-length']).toBe('1000');
    expect(response.rawPayload.equals(BYTES.subarray(1000, 2000))).toBe(true);

    // Safari first asks for the first two bytes, then for the tail.
    const probe = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=0-1' } });
    expect(probe.statusCode).toBe(206);
    expect(probe.rawPayload.equals(BYTES.subarray(0, 2))).toBe(true);
    const tail = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=-500' } });
    expect(tail.headers['content-range']).toBe(
      `bytes ${BYTES.length - 500}-${BYTES.length - 1}/${BYTES.length}`,
    );
    expect(tail.rawPayload.equals(BYTES.subarray(BYTES.length - 500))).toBe(true);
  });

  it('answers a range past the end with 416 and the size', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url,
      headers: { range: `bytes=${BYTES.length}-` },
    });
    expect(response.statusCode).toBe(416);
    expect(response.headers['content-range']).toBe(`bytes */${BYTES.length}`);
  });

  it('answers 304 for the version the browser holds, and the whole file when If-Range names another', async () => {
    const first = await t.app.inject({ method: 'GET', url });
    const etag = first.headers['etag'] as string;
    const cached = await t.app.inject({ method: 'GET', url, headers: { 'if-none-match': etag } });
    expect(cached.statusCode).toBe(304);
    expect(cached.rawPayload.length).toBe(0);

    const stale = await t.app.inject({
      method: 'GET',
      url,
      headers: { range: 'bytes=0-9', 'if-range': '"another-version"' },
    });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload.length).toBe(BYTES.length);
    const same = await t.app.inject({
      method: 'GET',
      url,
      headers: { range: 'bytes=0-9', 'if-range': etag },
    });
    expect(same.statusCode).toBe(206);
  });

  it('tells the size on HEAD without a body', async () => {
    const response = await t.app.inject({ method: 'HEAD', url });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-length']).toBe(String(BYTES.length));
    expect(response.rawPayload.length).toBe(0);
  });

  it('refuses an unsigned, tampered or unknown address with 404', async () => {
    const unsigned = await t.app.inject({ method: 'GET', url: `/api/media/${KEY}` });
    expect(unsigned.statusCode).toBe(404);
    // One character of the sealed key changed.
    const sealed = url.slice('/api/media/'.length, url.indexOf('.'));
    const flipped = sealed.slice(0, 10) + (sealed[10] === 'A' ? 'B' : 'A') + sealed.slice(11);
    const tampered = await t.app.inject({ method: 'GET', url: url.replace(sealed, flipped) });
    expect(tampered.statusCode).toBe(404);
    const missing = t.deps.mediaUrls.url('results/media-test/missing.mp4', t.deps.now());
    expect((await t.app.inject({ method: 'GET', url: missing })).statusCode).toBe(404);
  });
});

describe('GET /api/media/<key> with an S3 store', () => {
  let s3: S3Fake;
  let app: TestApp;
  beforeAll(async () => {
    s3 = await startS3Fake();
    app = await createTestApp({ env: s3.env('media-redirect') });
    await app.deps.storage.put(KEY, BYTES, 'video/mp4');
  });
  afterAll(async () => {
    await app.close();
    await s3.close();
  });

  it('hands out the store’s own presigned URL, so no bytes pass through the API', async () => {
    const direct = app.deps.mediaUrls.url(KEY, app.deps.now());
    expect(direct.startsWith(`${s3.endpoint}/`)).toBe(true);
    const part = await fetch(direct, { headers: { range: 'bytes=1000-1999' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(BYTES.subarray(1000, 2000))).toBe(true);
  });

  it('redirects a link of ours (made before the move to S3) to a presigned URL, keeping the download name', async () => {
    const ours = createMediaUrls(TEST_JWT_SECRET, { defaultTtlSeconds: 3600 });
    const link = ours.url(KEY, new Date(), { download: 'clip.mp4' });
    const response = await app.app.inject({ method: 'GET', url: link });
    expect(response.statusCode).toBe(302);
    const location = response.headers.location as string;
    expect(location.startsWith(`${s3.endpoint}/`)).toBe(true);
    const file = await fetch(location);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="clip.mp4"');
    expect(Buffer.from(await file.arrayBuffer()).equals(BYTES)).toBe(true);

    const forged = link.replace(/sig=[^&]+/, 'sig=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    expect((await app.app.inject({ method: 'GET', url: forged })).statusCode).toBe(404);
  });
});
