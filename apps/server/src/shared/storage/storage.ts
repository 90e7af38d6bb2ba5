import type { Readable } from 'node:stream';

/**
 * Where files live: local disk by default (DATA_DIR/media); an S3-compatible store (STORAGE_URL)
 * when several machines share them. Keys are relative paths like `results/<uuid>/original.png`;
 * nothing here is public by itself — files reach browsers through signed, expiring URLs (see
 * media-urls.ts): served by GET /api/media from local disk, presigned by the store itself for S3.
 */
export interface Storage {
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<{ data: Buffer; contentType: string } | null>;
  /**
   * A stored file to send as a stream (whole or a byte range), without reading it into memory;
   * null when there is no such file.
   */
  open(key: string): Promise<StoredFile | null>;
  delete(key: string): Promise<void>;
  /** Removes every key under a prefix (e.g. all files of a generation or a model). */
  deletePrefix(prefix: string): Promise<void>;
  /** Resolves once the store can serve (S3: its object naming is loaded); rejects when it cannot. */
  ready?(): Promise<void>;
  /** Present when browsers can fetch files from the store itself (S3): presigned, expiring URLs. */
  directUrls?: DirectUrls;
}

export interface DirectUrls {
  /** A URL valid until `expiresAt`, made without a round trip; null when this store cannot (no static credentials). */
  signNow(key: string, expiresAt: Date, options: { now: Date; download?: string }): string | null;
  /** The same URL, signed with whatever credentials the store has (may ask a credential provider). */
  sign(key: string, expiresAt: Date, options: { now: Date; download?: string }): Promise<string>;
}

export interface StoredFile {
  size: number;
  contentType: string;
  modifiedAt: Date;
  /** The bytes from `start` to `end` inclusive (the whole file without a range). */
  read(range?: { start: number; end: number }): Readable;
}
