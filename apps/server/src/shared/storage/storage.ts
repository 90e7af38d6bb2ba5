import type { Readable } from 'node:stream';

/**
 * Where files live: local disk by default (DATA_DIR/media); an S3-compatible store at scale.
 * Keys are relative paths like `results/<uuid>/original.png`; nothing here is public by itself —
 * files reach browsers through signed, expiring URLs (see media-urls.ts).
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
}

export interface StoredFile {
  size: number;
  contentType: string;
  modifiedAt: Date;
  /** The bytes from `start` to `end` inclusive (the whole file without a range). */
  read(range?: { start: number; end: number }): Readable;
}
