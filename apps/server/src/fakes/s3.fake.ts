import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { presignGetUrl } from '../shared/storage/s3-presign.js';

/** s3rver's one account. */
const ACCESS_KEY_ID = 'S3RVER';
const SECRET_ACCESS_KEY = 'S3RVER';

export interface S3Fake {
  /** The endpoint to give the SDK (path-style). */
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** STORAGE_URL and AWS_* variables for an app that keeps its files under `prefix` in the bucket. */
  env(prefix?: string): Record<string, string>;
  close(): Promise<void>;
}

/**
 * An S3-compatible server on this machine for tests and demos: s3rver (the real S3 wire protocol:
 * PutObject, GetObject with ranges, HeadObject, ListObjectsV2, DeleteObjects) with the bucket kept
 * private the way S3 keeps it: a request without a signature gets 403 AccessDenied, and a
 * presigned GET (query-string Signature Version 4) must carry the right signature (403
 * SignatureDoesNotMatch) and not be expired (403 AccessDenied, s3rver's own check).
 */
export async function startS3Fake(
  options: { host?: string; port?: number; bucket?: string; directory?: string } = {},
): Promise<S3Fake> {
  const host = options.host ?? '127.0.0.1';
  const bucket = options.bucket ?? 'mirra-test';
  const ownsDirectory = !options.directory;
  const directory = options.directory ?? (await mkdtemp(path.join(os.tmpdir(), 'mirra-s3-')));
  const s3rver = new S3rver({
    silent: true,
    directory,
    vhostBuckets: false,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  await s3rver.configureBuckets();
  const handle = s3rver.callback();
  const region = 'us-east-1';
  const server = createServer((request, response) => {
    const refusal = refusalOf(request, region);
    if (refusal) return sendError(response, refusal.code, refusal.message);
    handle(request, response);
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://${host}:${port}`;
  return {
    endpoint,
    bucket,
    accessKeyId: ACCESS_KEY_ID,
    secretAccessKey: SECRET_ACCESS_KEY,
    region,
    env(prefix = '') {
      const where = prefix ? `${bucket}/${prefix.replace(/^\/+|\/+$/g, '')}` : bucket;
      return {
        STORAGE_URL: `s3://${where}?region=${region}&endpoint=${encodeURIComponent(endpoint)}&forcePathStyle=true`,
        AWS_ACCESS_KEY_ID: ACCESS_KEY_ID,
        AWS_SECRET_ACCESS_KEY: SECRET_ACCESS_KEY,
      };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (ownsDirectory) await rm(directory, { recursive: true, force: true });
    },
  };
}

function refusalOf(request: IncomingMessage, region: string): { code: string; message: string } | null {
  if (request.method === 'OPTIONS') return null;
  const url = new URL(request.url ?? '/', `http://${request.headers.host}`);
  if (request.headers.authorization) {
    // The SDK signs its own calls in a header; the key must at least be this account's.
    return request.headers.authorization.includes(`Credential=${ACCESS_KEY_ID}/`)
      ? null
      : {
          code: 'InvalidAccessKeyId',
          message: 'The AWS Access Key Id you provided does not exist in our records.',
        };
  }
  const signature = url.searchParams.get('X-Amz-Signature');
  if (!signature) return { code: 'AccessDenied', message: 'Access Denied' };
  const date = url.searchParams.get('X-Amz-Date') ?? '';
  const signedAt = new Date(
    `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${date.slice(9, 11)}:${date.slice(11, 13)}:${date.slice(13, 15)}Z`,
  );
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) {
    if (
      !/^X-Amz-(Algorithm|Content-Sha256|Credential|Date|Expires|SignedHeaders|Signature|Security-Token)$/.test(
        name,
      )
    ) {
      query[name] = value;
    }
  }
  const expected = new URL(
    presignGetUrl({
      objectUrl: new URL(`http://${request.headers.host}${url.pathname}`),
      region,
      credentials: { accessKeyId: ACCESS_KEY_ID, secretAccessKey: SECRET_ACCESS_KEY },
      signedAt,
      expiresInSeconds: Number(url.searchParams.get('X-Amz-Expires')),
      query,
    }),
  ).searchParams.get('X-Amz-Signature');
  return expected === signature
    ? null
    : {
        code: 'SignatureDoesNotMatch',
        message: 'The request signature we calculated does not match the signature you provided.',
      };
}

function sendError(response: ServerResponse, code: string, message: string) {
  response.writeHead(403, { 'content-type': 'application/xml' });
  response.end(
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`,
  );
}
