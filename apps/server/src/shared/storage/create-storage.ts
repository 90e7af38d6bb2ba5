import { createLocalStorage } from './local-storage.js';
import { createS3Storage, type S3StorageOptions } from './s3-storage.js';
import type { Storage } from './storage.js';

export type StorageConfig = { kind: 'local'; dir: string } | ({ kind: 's3' } & S3StorageOptions);

/** The store STORAGE_URL names: an S3-compatible bucket, or local disk under DATA_DIR/media. */
export function createStorage(config: StorageConfig): Storage {
  return config.kind === 's3' ? createS3Storage(config) : createLocalStorage(config.dir);
}
