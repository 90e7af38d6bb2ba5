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

/**
 * Files as objects in an S3-compatible bucket, which stays private: browsers get a file through a
 * presigned GET URL that expires (see `directUrls`), never through a public listing or ACL.
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
  const objectKey = (key: string) => `${options.prefix}${assertSafeStorageKey(key)}`;
  const endpoint = new URL(options.endpoint ?? `https://s3.${options.region}.amazonaws.com`);

  function objectUrl(key: string): URL {
    const name = objectKey(key).split('/').map(encodeURIComponent).join('/');
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
    async put(key, data, contentType) {
      await client.send(
        new PutObjectCommand({ Bucket, Key: objectKey(key), Body: data, ContentType: contentType }),
      );
    },
    async get(key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: objectKey(key) }));
        const data = Buffer.from(await object.Body!.transformToByteArray());
        return { data, contentType: object.ContentType ?? 'application/octet-stream' };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    async open(key) {
      const Key = objectKey(key);
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
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
    },
    async deletePrefix(prefix) {
      // Whole segments only: `models/1/ab` must not take `models/1/abc/…` with it.
      const Prefix = `${objectKey(prefix.replace(/\/+$/, ''))}/`;
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
        if (!options.credentials) return null;
        const { signedAt, expiresIn } = signingWindow(expiresAt, now);
        const contentDisposition = disposition(download);
        return throughCdn(
          presignGetUrl({
            objectUrl: objectUrl(key),
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
            Key: objectKey(key),
            ResponseContentDisposition: disposition(download),
          }),
          { expiresIn, signingDate: signedAt },
        );
        return throughCdn(url);
      },
    },
  };
}

function isNotFound(error: unknown): boolean {
  if (error instanceof S3ServiceException) {
    return error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404;
  }
  return false;
}
