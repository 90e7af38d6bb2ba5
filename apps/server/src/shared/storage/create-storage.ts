import { createLocalStorage } from './local-storage.js';
import { createS3Storage, type S3StorageOptions } from './s3-storage.js';
import type { Storage } from './storage.js';

export type StorageConfig = { kind: 'local'; dir: string } | ({ kind: 's3' } & S3StorageOptions);

/** The store STORAGE_URL names: an S3-compatible bucket, or local disk under DATA_DIR/media. */
export function createStorage(config: StorageConfig): Storage {
  return config.kind === 's3' ? createS3Storage(config) : createLocalStorage(config.dir);
}

/** The origin browsers load media from when it is not the app's own (an S3 store or its CDN). */
export function mediaOriginOf(config: StorageConfig): string | null {
  if (config.kind !== 's3') return null;
  if (config.cdnUrl) return new URL(config.cdnUrl).origin;
  const endpoint = new URL(config.endpoint ?? `https://s3.${config.region}.amazonaws.com`);
  return config.forcePathStyle ? endpoint.origin : `${endpoint.protocol}//${config.bucket}.${endpoint.host}`;
}
