import { createHmac, randomBytes } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { MAX_PRESIGN_SECONDS, presignGetUrl, type S3Credentials } from './s3-presign.js';
import type { Storage } from './storage.js';
import { assertSafeStorageKey, safeDownloadName } from './storage-keys.js';

export interface S3StorageOptions {
  bucket: string;
  /** Every object's name starts with this (`''` or ending in `/`): one bucket can hold several apps. */
  prefix: string;
  region: string;
  /** Another S3-compatible service (R2, MinIO, Ceph, Yandex); unset: AWS S3 of the region. */
  endpoint?: string;
  /** `https://endpoint/bucket/key` instead of `https://bucket.endpoint/key` (MinIO, Ceph). */
  forcePathStyle: boolean;
  /**
   * Static credentials (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN). Unset: the
   * SDK's provider chain (instance role, web identity, profile); media URLs are then presigned on
   * request by GET /api/media, which redirects.
   */
  credentials?: S3Credentials;
  /** A CDN in front of the bucket that forwards the query string (URLs stay presigned): its base URL. */
  cdnUrl?: string;
}

/** Where the secret that names objects is kept, in the bucket beside them (under the prefix). */
export const NAMING_SECRET_OBJECT = '.mirra/object-naming-secret';

/**
 * Files as objects in an S3-compatible bucket, which stays private: browsers get a file through a
 * presigned GET URL that expires (see `directUrls`), never through a public listing or ACL.
 *
 * A presigned URL shows the object's name, and storage keys name owners and private things (a
 * published post's image lives under its private generation's uuid). So each segment of a key
 * after the first (`results`, `models`, …) is replaced in the object's name by a keyed hash of it
 * (the file's extension kept): `results/<user>/<generation>/w256.webp` becomes
 * `results/<h>/<h>/<h>.webp`. Prefixes still map to prefixes, so deleting everything of a model
 * is one listing. The hash key is made once and kept in the bucket itself (NAMING_SECRET_OBJECT),
 * so every node and `storage:migrate` name objects alike with nothing more to configure.
 */
export function createS3Storage(options: S3StorageOptions): Storage & { client: S3Client } {
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    credentials: options.credentials,
    // Compatible stores (s3rver, older MinIO/Ceph) do not speak the newer default checksums.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = options.bucket;
  let namingKey: Buffer | undefined;
  let loading: Promise<Buffer> | null = null;
  /**
   * The naming secret, read once and kept. A failed read (the store unreachable while the node
   * starts) is not kept: the next operation, or the readiness check, reads it again.
   */
  const naming = (): Promise<Buffer> => {
    if (namingKey) return Promise.resolve(namingKey);
    loading ??= loadNamingKey(client, Bucket, `${options.prefix}${NAMING_SECRET_OBJECT}`).then(
      (key) => (namingKey = key),
      (error: unknown) => {
        loading = null;
        throw error;
      },
    );
    return loading;
  };
  // Read at start-up; a failure surfaces in the first operation (and the readiness check), not as
  // an unhandled rejection.
  naming().catch(() => undefined);
  const nameWith = (hashKey: Buffer, key: string) => {
    const [first, ...rest] = assertSafeStorageKey(key).split('/');
    const hashed = rest.map((segment, index) => {
      const extension = index === rest.length - 1 ? (/\.[A-Za-z0-9]{1,8}$/.exec(segment)?.[0] ?? '') : '';
      const stem = segment.slice(0, segment.length - extension.length);
      return `${createHmac('sha256', hashKey).update(stem).digest('base64url').slice(0, 22)}${extension}`;
    });
    return `${options.prefix}${[first, ...hashed].join('/')}`;
  };
  const objectKeyNow = (key: string) => (namingKey ? nameWith(namingKey, key) : null);
  const objectKey = async (key: string) => nameWith(await naming(), key);
  const endpoint = new URL(options.endpoint ?? `https://s3.${options.region}.amazonaws.com`);

  function objectUrl(objectName: string): URL {
    const name = objectName.split('/').map(encodeURIComponent).join('/');
    if (options.forcePathStyle) {
      return new URL(`${endpoint.origin}${endpoint.pathname.replace(/\/+$/, '')}/${Bucket}/${name}`);
    }
    return new URL(`${endpoint.protocol}//${Bucket}.${endpoint.host}/${name}`);
  }

  /** Behind a CDN the URL keeps its path and signature; only where it is fetched from changes. */
  function throughCdn(url: string): string {
    if (!options.cdnUrl) return url;
    const parsed = new URL(url);
    return `${options.cdnUrl.replace(/\/+$/, '')}${parsed.pathname}${parsed.search}`;
  }

  const disposition = (download: string | undefined) =>
    download ? `attachment; filename="${safeDownloadName(download)}"` : undefined;

  /** Signed at the start of the current hour, so a file keeps one URL for an hour (cacheable). */
  function signingWindow(expiresAt: Date, now: Date) {
    const signedAt = new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000);
    const seconds = Math.round((expiresAt.getTime() - signedAt.getTime()) / 1000);
    return { signedAt, expiresIn: Math.min(Math.max(seconds, 1), MAX_PRESIGN_SECONDS) };
  }

  return {
    client,
    async ready() {
      await naming();
    },
    async put(key, data, contentType) {
      await client.send(
        new PutObjectCommand({ Bucket, Key: await objectKey(key), Body: data, ContentType: contentType }),
      );
    },
    async get(key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: await objectKey(key) }));
        const data = Buffer.from(await object.Body!.transformToByteArray());
        return { data, contentType: object.ContentType ?? 'application/octet-stream' };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    async open(key) {
      const Key = await objectKey(key);
      let head;
      try {
        head = await client.send(new HeadObjectCommand({ Bucket, Key }));
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
      const etag = head.ETag;
      return {
        size: head.ContentLength ?? 0,
        contentType: head.ContentType ?? 'application/octet-stream',
        modifiedAt: head.LastModified ?? new Date(0),
        read(range) {
          const out = new PassThrough();
          client
            .send(
              new GetObjectCommand({
                Bucket,
                Key,
                Range: range ? `bytes=${range.start}-${range.end}` : undefined,
                IfMatch: etag,
              }),
            )
            .then((object) => {
              const body = object.Body as Readable;
              body.on('error', (error) => out.destroy(error));
              body.pipe(out);
            })
            .catch((error: Error) => out.destroy(error));
          return out;
        },
      };
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: await objectKey(key) }));
    },
    async deletePrefix(prefix) {
      // Whole segments only: `models/1/ab` must not take `models/1/abc/…` with it.
      const Prefix = `${await objectKey(prefix.replace(/\/+$/, ''))}/`;
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix, ContinuationToken }));
        const keys = (page.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
        if (keys.length) {
          const result = await client.send(
            new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys, Quiet: true } }),
          );
          if (result.Errors?.length) {
            throw new Error(`could not delete ${result.Errors.length} objects under ${Prefix}`);
          }
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
    directUrls: {
      signNow(key, expiresAt, { now, download }) {
        const name = objectKeyNow(key);
        if (!options.credentials || !name) return null;
        const { signedAt, expiresIn } = signingWindow(expiresAt, now);
        const contentDisposition = disposition(download);
        return throughCdn(
          presignGetUrl({
            objectUrl: objectUrl(name),
            region: options.region,
            credentials: options.credentials,
            signedAt,
            expiresInSeconds: expiresIn,
            query: contentDisposition ? { 'response-content-disposition': contentDisposition } : {},
          }),
        );
      },
      async sign(key, expiresAt, { now, download }) {
        const { signedAt, expiresIn } = signingWindow(expiresAt, now);
        const url = await getSignedUrl(
          client,
          new GetObjectCommand({
            Bucket,
            Key: await objectKey(key),
            ResponseContentDisposition: disposition(download),
          }),
          { expiresIn, signingDate: signedAt },
        );
        return throughCdn(url);
      },
    },
  };
}

/**
 * The naming secret from the bucket, made on first use: written only if absent (a conditional
 * PUT where the store supports it), then read back, so nodes starting together agree on one.
 */
async function loadNamingKey(client: S3Client, Bucket: string, Key: string): Promise<Buffer> {
  const read = async () => {
    try {
      const object = await client.send(new GetObjectCommand({ Bucket, Key }));
      return Buffer.from(await object.Body!.transformToString(), 'base64url');
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  };
  const existing = await read();
  if (existing && existing.length >= 32) return existing;
  try {
    await client.send(
      new PutObjectCommand({
        Bucket,
        Key,
        Body: randomBytes(32).toString('base64url'),
        ContentType: 'text/plain',
        IfNoneMatch: '*',
      }),
    );
  } catch (error) {
    // Another node wrote it first: use theirs.
    if (!(error instanceof S3ServiceException && error.$metadata.httpStatusCode === 412)) throw error;
  }
  const made = await read();
  if (!made || made.length < 32) throw new Error('the object naming secret could not be kept in the bucket');
  return made;
}

function isNotFound(error: unknown): boolean {
  if (error instanceof S3ServiceException) {
    return error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404;
  }
  return false;
}
