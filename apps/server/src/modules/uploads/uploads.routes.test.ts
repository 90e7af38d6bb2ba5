import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors.js';
import { uploads } from '../../shared/db/schema.js';
import { bearer, createActiveUser, login } from '../../test/factories.js';
import { multipartBody, pngBomb, TINY_HEIC, twoToneImage, type MultipartPart } from '../../test/images.js';
import { createTestApp, mediaUrlPattern, type TestApp } from '../../test/test-app.js';
import { loadUploadsForGeneration } from './uploads.usecases.js';

let t: TestApp;
let strict: TestApp;
let alice: { id: number; headers: Record<string, string> };
let bob: { id: number; headers: Record<string, string> };

async function signIn(app: TestApp) {
  const user = await createActiveUser(app);
  return { id: user.id, headers: bearer((await login(app, user.email!, user.password)).access) };
}

beforeAll(async () => {
  [t, strict] = await Promise.all([
    createTestApp({ env: { UPLOAD_MAX_MB: '1', UPLOAD_MAX_SIDE: '1024' } }),
    // Tiny pixel limit (HEIC and sharp paths) and rate limit.
    createTestApp({ env: { UPLOAD_MAX_PIXELS: '1000', RATE_LIMIT_UPLOADS_PER_USER: '3' } }),
  ]);
  [alice, bob] = await Promise.all([signIn(t), signIn(t)]);
});
afterAll(async () => {
  await Promise.all([t?.close(), strict?.close()]);
});

const upload = (parts: MultipartPart[], headers: Record<string, string>, app: TestApp = t) => {
  const body = multipartBody(parts);
  return app.app.inject({
    method: 'POST',
    url: '/api/uploads/',
    payload: body.payload,
    headers: { ...headers, ...body.headers },
  });
};
const uploadFile = (
  data: Buffer,
  filename = 'photo.jpg',
  contentType = 'image/jpeg',
  headers = alice.headers,
) => upload([{ name: 'file', filename, contentType, data }], headers);
const fetchMedia = (url: string) => t.fetchMedia(url);
/** A media link that does not serve: 404 from GET /api/media, 403 or 404 from an S3 store. */
const REFUSED = [403, 404];

describe('POST /api/uploads/', () => {
  it.each([
    ['JPEG', 'jpeg', 'photo.jpg', 'image/jpeg'],
    ['PNG', 'png', 'shot.png', 'image/png'],
    ['WebP', 'webp', 'pic.webp', 'image/webp'],
  ] as const)('accepts a %s and stores it as a private JPEG', async (_name, format, filename, type) => {
    const response = await uploadFile(await twoToneImage(120, 80, format), filename, type);
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      // The storage key is sealed: the URL names neither the owner nor the upload.
      url: expect.stringMatching(mediaUrlPattern('jpg')),
      width: 120,
      height: 80,
      content_type: 'image/jpeg',
      bytes: expect.any(Number),
    });
    const [row] = await t.deps.db.select().from(uploads).where(eq(uploads.uuid, body.uuid));
    expect(row).toMatchObject({
      userId: alice.id,
      contentType: 'image/jpeg',
      width: 120,
      height: 80,
      bytes: body.bytes,
      storageKey: `uploads/${alice.id}/${body.uuid}.jpg`,
    });
    const media = await fetchMedia(body.url);
    expect(media.statusCode).toBe(200);
    expect(media.headers['content-type']).toBe('image/jpeg');
    expect(media.rawPayload.length).toBe(body.bytes);
    expect(await sharp(media.rawPayload).metadata()).toMatchObject({
      format: 'jpeg',
      width: 120,
      height: 80,
    });
  });

  it('accepts a HEIC photo from an iPhone and decodes it (libheif in WebAssembly)', async () => {
    const response = await uploadFile(TINY_HEIC, 'IMG_0001.HEIC', 'image/heic');
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({ width: 64, height: 48, content_type: 'image/jpeg' });
    const media = await fetchMedia(body.url);
    const { data, info } = await sharp(media.rawPayload).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [
      ...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3),
    ];
    const near = (actual: number[], expected: number[]) =>
      actual.every((value, i) => Math.abs(value - expected[i]!) < 30);
    expect(near(pixel(5, 24), [230, 120, 30]), `left ${pixel(5, 24)}`).toBe(true);
    expect(near(pixel(58, 24), [30, 90, 220]), `right ${pixel(58, 24)}`).toBe(true);
  });

  it('goes by the bytes, not the name or the declared type', async () => {
    const png = await twoToneImage(40, 30, 'png');
    const renamed = await uploadFile(png, 'holiday.jpg', 'image/jpeg');
    expect(renamed.statusCode).toBe(201);
    expect(renamed.json()).toMatchObject({ width: 40, height: 30, content_type: 'image/jpeg' });

    const jpegAsText = await uploadFile(await twoToneImage(40, 30), 'notes.txt', 'text/plain');
    expect(jpegAsText.statusCode).toBe(201);

    const textAsJpeg = await uploadFile(Buffer.from('just some text, honestly\n'), 'photo.jpg', 'image/jpeg');
    expect(textAsJpeg.statusCode).toBe(415);
    expect(textAsJpeg.json()).toEqual({
      detail: 'Unsupported file type. Upload a JPEG, PNG, WebP or HEIC image.',
      file: ['Upload a valid image. The file you uploaded was either not an image or a corrupted image.'],
      code: 'uploads.unsupported_type',
    });
  });

  it.each([
    ['a GIF', () => twoToneImage(20, 20, 'gif')],
    ['an AVIF', () => twoToneImage(20, 20, 'avif')],
    ['a cut-off JPEG', async () => (await twoToneImage(200, 200)).subarray(0, 400)],
    [
      'a JPEG header and garbage',
      async () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), randomBytes(2000)]),
    ],
  ])('refuses %s with 415', async (_name, make) => {
    const response = await uploadFile(await make());
    expect(response.statusCode).toBe(415);
    expect(response.json().code).toBe('uploads.unsupported_type');
  });

  it("refuses a file over the size limit: 'File too big', 'The file size must not exceed N MB'", async () => {
    const response = await uploadFile(randomBytes(1024 * 1024 + 1));
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      detail: 'File too big',
      file: ['The file size must not exceed 1 MB'],
      max_mb: 1,
      code: 'uploads.too_big',
    });
    // Exactly at the limit is not too big (it is refused for being random bytes instead).
    expect((await uploadFile(randomBytes(1024 * 1024))).statusCode).toBe(415);
  });

  it('reads files larger than the JSON body limit (1 MB) up to UPLOAD_MAX_MB (15 by default)', async () => {
    const { headers } = await signIn(strict);
    const response = await upload(
      [{ name: 'file', filename: 'a.jpg', data: randomBytes(3 * 1024 * 1024) }],
      headers,
      strict,
    );
    // Read whole and judged by its bytes: not an image, rather than too big.
    expect(response.statusCode).toBe(415);
  });

  it('refuses a decompression bomb before decoding it', async () => {
    const bomb = pngBomb(20_000, 20_000);
    expect(bomb.length).toBeLessThan(100_000);
    const started = Date.now();
    const response = await uploadFile(bomb, 'bomb.png', 'image/png');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      detail: 'Image too large',
      file: ['The image must not exceed 50 megapixels'],
      max_pixels: 50_000_000,
      code: 'uploads.too_many_pixels',
    });
    // Decoding 400 megapixels would take seconds and gigabytes.
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('applies the pixel limit to HEIC and to every other type', async () => {
    const { headers } = await signIn(strict);
    for (const [data, name] of [
      [TINY_HEIC, 'a.heic'],
      [await twoToneImage(40, 30), 'b.jpg'],
    ] as const) {
      const response = await upload([{ name: 'file', filename: name, data }], headers, strict);
      expect(response.statusCode, name).toBe(400);
      expect(response.json()).toMatchObject({ code: 'uploads.too_many_pixels', max_pixels: 1000 });
    }
    const small = await upload(
      [{ name: 'file', filename: 'c.jpg', data: await twoToneImage(30, 30) }],
      headers,
      strict,
    );
    expect(small.statusCode).toBe(201);
  });

  it('applies the EXIF orientation to the pixels and strips EXIF with the GPS position', async () => {
    const source = await sharp(await twoToneImage(60, 40))
      .withMetadata({ orientation: 6 })
      .withExif({
        IFD0: { Make: 'FakePhone', Model: 'Serial-12345' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '55/1 45/1 0/1' },
      })
      .jpeg()
      .toBuffer();
    const sourceMeta = await sharp(source).metadata();
    expect(sourceMeta.orientation).toBe(6);
    expect(
      sourceMeta.exif?.includes(Buffer.from([0x88, 0x25])) ||
        sourceMeta.exif?.includes(Buffer.from([0x25, 0x88])),
    ).toBe(true);
    expect(sourceMeta.exif?.toString('latin1')).toContain('FakePhone');

    const response = await uploadFile(source);
    expect(response.statusCode).toBe(201);
    // Rotated 90° clockwise: 60×40 becomes 40×60.
    expect(response.json()).toMatchObject({ width: 40, height: 60 });
    const stored = (await fetchMedia(response.json().url)).rawPayload;
    const meta = await sharp(stored).metadata();
    expect(meta).toMatchObject({ width: 40, height: 60 });
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect(stored.includes(Buffer.from('Exif\0\0'))).toBe(false);
    expect(stored.includes(Buffer.from('FakePhone'))).toBe(false);
    // The left (red) half is now on top.
    const { data } = await sharp(stored).raw().toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(200);
    expect(data[2]).toBeLessThan(60);
    expect(data[data.length - 1]).toBeGreaterThan(200);
  });

  it('keeps transparency as PNG, and stores an opaque image with an alpha channel as JPEG', async () => {
    const transparent = await sharp({
      create: { width: 50, height: 50, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 0.5 } },
    })
      .png()
      .toBuffer();
    const kept = await uploadFile(transparent, 'sticker.png', 'image/png');
    expect(kept.statusCode).toBe(201);
    expect(kept.json()).toMatchObject({ content_type: 'image/png', url: expect.stringMatching(/\.png\?/) });
    const meta = await sharp((await fetchMedia(kept.json().url)).rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'png', hasAlpha: true });

    const opaque = await sharp({ create: { width: 50, height: 50, channels: 4, background: '#00ff00' } })
      .png()
      .toBuffer();
    expect((await sharp(opaque).metadata()).hasAlpha).toBe(true);
    expect((await uploadFile(opaque, 'x.png', 'image/png')).json()).toMatchObject({
      content_type: 'image/jpeg',
    });
  });

  it('scales a photo larger than UPLOAD_MAX_SIDE down, keeping its proportions', async () => {
    const response = await uploadFile(await twoToneImage(2048, 512));
    expect(response.json()).toMatchObject({ width: 1024, height: 256 });
  });

  it('answers a missing or empty file with DRF field errors', async () => {
    const cases: Array<[() => Promise<{ statusCode: number; json(): unknown }>, string]> = [
      [() => upload([{ name: 'comment', data: 'no file here' }], alice.headers), 'No file was submitted.'],
      [
        () => upload([{ name: 'image', filename: 'a.jpg', data: 'xx' }], alice.headers),
        'No file was submitted.',
      ],
      [
        () =>
          t.app.inject({
            method: 'POST',
            url: '/api/uploads/',
            payload: { file: 'x' },
            headers: alice.headers,
          }),
        'No file was submitted.',
      ],
      [() => uploadFile(Buffer.alloc(0)), 'The submitted file is empty.'],
    ];
    for (const [send, message] of cases) {
      const response = await send();
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ file: [message], code: 'common.validation' });
    }
  });

  it('answers a broken multipart body with 400, not a server error', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/uploads/',
      payload: '--abc\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\n\r\n\xff\xd8',
      headers: { ...alice.headers, 'content-type': 'multipart/form-data; boundary=abc' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('common.validation');
  });

  it('needs a signed-in user', async () => {
    const response = await upload(
      [{ name: 'file', filename: 'a.jpg', data: await twoToneImage(10, 10) }],
      {},
    );
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('auth.not_authenticated');
  });

  it('limits uploads per user', async () => {
    const user = await signIn(strict);
    const image = await twoToneImage(20, 20);
    for (let i = 0; i < 3; i++) {
      expect(
        (await upload([{ name: 'file', filename: 'a.jpg', data: image }], user.headers, strict)).statusCode,
      ).toBe(201);
    }
    const throttled = await upload([{ name: 'file', filename: 'a.jpg', data: image }], user.headers, strict);
    expect(throttled.statusCode).toBe(429);
    expect(throttled.json().code).toBe('common.throttled');
    expect(throttled.headers['retry-after']).toBeDefined();
    // Another user is not affected.
    const other = await signIn(strict);
    expect(
      (await upload([{ name: 'file', filename: 'a.jpg', data: image }], other.headers, strict)).statusCode,
    ).toBe(201);
  });
});

describe('GET and DELETE /api/uploads/<uuid>/', () => {
  it('shows my upload to me with a fresh signed URL, and to nobody else', async () => {
    const created = (await uploadFile(await twoToneImage(30, 20))).json();
    const mine = await t.app.inject({
      method: 'GET',
      url: `/api/uploads/${created.uuid}/`,
      headers: alice.headers,
    });
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toEqual({
      ...created,
      url: expect.stringMatching(mediaUrlPattern('jpg')),
    });

    const notFound = { detail: 'Not found.', code: 'uploads.not_found' };
    for (const [url, headers] of [
      [`/api/uploads/${created.uuid}/`, bob.headers],
      [`/api/uploads/${randomUUID()}/`, alice.headers],
      ['/api/uploads/not-a-uuid/', alice.headers],
    ] as const) {
      const response = await t.app.inject({ method: 'GET', url, headers });
      expect({ url, status: response.statusCode, body: response.json() }).toEqual({
        url,
        status: 404,
        body: notFound,
      });
    }
    expect((await t.app.inject({ method: 'GET', url: `/api/uploads/${created.uuid}/` })).statusCode).toBe(
      401,
    );
  });

  it('serves the file only through a valid, unexpired signed URL', async () => {
    const { url, uuid } = (await uploadFile(await twoToneImage(30, 20))).json();
    expect((await fetchMedia(url)).statusCode).toBe(200);
    const path = url.split('?')[0];
    expect(REFUSED).toContain((await fetchMedia(path)).statusCode);
    const forged = url.includes('sig=')
      ? url.replace(/sig=[\w-]+/, 'sig=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')
      : url.replace(/X-Amz-Signature=\w+/, `X-Amz-Signature=${'0'.repeat(64)}`);
    expect(forged).not.toBe(url);
    expect(REFUSED).toContain((await fetchMedia(forged)).statusCode);
    // Someone else's file with my signature.
    const theirs = (
      await uploadFile(await twoToneImage(30, 20), 'photo.jpg', 'image/jpeg', bob.headers)
    ).json();
    expect(REFUSED).toContain(
      (await fetchMedia(`${theirs.url.split('?')[0]}?${url.split('?')[1]}`)).statusCode,
    );
    if (path.startsWith('/api/media/')) {
      // A sealed path with one character changed.
      const sealed = path.slice('/api/media/'.length);
      const flipped = `/api/media/${sealed[0] === 'A' ? 'B' : 'A'}${sealed.slice(1)}?${url.split('?')[1]}`;
      expect((await fetchMedia(flipped)).statusCode).toBe(404);
    }
    // A link handed out three days ago has expired.
    const old = t.deps.mediaUrls.url(
      `uploads/${alice.id}/${uuid}.jpg`,
      new Date(Date.now() - 3 * 24 * 3600 * 1000),
    );
    expect(REFUSED).toContain((await fetchMedia(old)).statusCode);
  });

  it('deletes my upload and its file; nobody else can', async () => {
    const created = (await uploadFile(await twoToneImage(30, 20))).json();
    const key = `uploads/${alice.id}/${created.uuid}.jpg`;
    const byBob = await t.app.inject({
      method: 'DELETE',
      url: `/api/uploads/${created.uuid}/`,
      headers: bob.headers,
    });
    expect(byBob.statusCode).toBe(404);
    expect(await t.deps.storage.get(key)).not.toBeNull();

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/uploads/${created.uuid}/`,
      headers: alice.headers,
    });
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect(await t.deps.storage.get(key)).toBeNull();
    expect(await t.deps.db.select().from(uploads).where(eq(uploads.uuid, created.uuid))).toEqual([]);
    // The signed URL handed out before stops working at once.
    expect(REFUSED).toContain((await fetchMedia(created.url)).statusCode);
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/api/uploads/${created.uuid}/`,
      headers: alice.headers,
    });
    expect(again.statusCode).toBe(404);
  });
});

describe('loadUploadsForGeneration', () => {
  it('hands over my photos with their bytes, in the order asked', async () => {
    const a = (await uploadFile(await twoToneImage(30, 20))).json();
    const b = (await uploadFile(await twoToneImage(40, 10, 'png'), 'b.png', 'image/png')).json();
    const loaded = await loadUploadsForGeneration(t.deps, alice.id, [b.uuid, a.uuid, b.uuid.toUpperCase()]);
    expect(
      loaded.map(({ uuid, contentType, width, height }) => ({ uuid, contentType, width, height })),
    ).toEqual([
      { uuid: b.uuid, contentType: 'image/jpeg', width: 40, height: 10 },
      { uuid: a.uuid, contentType: 'image/jpeg', width: 30, height: 20 },
      { uuid: b.uuid, contentType: 'image/jpeg', width: 40, height: 10 },
    ]);
    expect((await sharp(loaded[1]!.data).metadata()).width).toBe(30);
    expect(await loadUploadsForGeneration(t.deps, alice.id, [])).toEqual([]);
  });

  it("refuses someone else's, unknown, malformed or deleted photos with a field error on images", async () => {
    const mine = (await uploadFile(await twoToneImage(30, 20))).json();
    const bobs = (await uploadFile(await twoToneImage(30, 20), 'b.jpg', 'image/jpeg', bob.headers)).json();
    const gone = (await uploadFile(await twoToneImage(30, 20))).json();
    await t.deps.storage.delete(`uploads/${alice.id}/${gone.uuid}.jpg`);
    for (const uuids of [[mine.uuid, bobs.uuid], [randomUUID()], ['nope'], [gone.uuid]]) {
      const error = await loadUploadsForGeneration(t.deps, alice.id, uuids).catch((e: unknown) => e);
      expect(error, JSON.stringify(uuids)).toBeInstanceOf(AppError);
      expect((error as AppError).statusCode).toBe(400);
      expect((error as AppError).toBody()).toEqual({
        images: ['This photo was not found. Upload it again.'],
        code: 'generations.image_required',
      });
    }
  });
});
