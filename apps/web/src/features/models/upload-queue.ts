import type { TModelPhotoVerdict } from '../../lib/api-types';

/**
 * The photos chosen on the model screens, from the pick to the server's verdict. Each file has
 * its own progress bar and verdict, yet files travel in small batches: one request per photo
 * would spend the per-user upload limit on a 30-photo set, one request for all would show one bar.
 */
export type UploadStatus =
  /** Chosen, waiting for its batch. */
  | 'queued'
  /** Its bytes are being sent. */
  | 'uploading'
  /** Sent; the server is checking the face (this takes a moment per photo). */
  | 'checking'
  /** The server's verdict is in. */
  | 'judged'
  /** The upload failed before any verdict; it may be sent again. */
  | 'failed';

export interface UploadItem {
  id: string;
  name: string;
  size: number;
  /** A local object URL to show the photo before the server's thumbnail exists. */
  preview: string | null;
  status: UploadStatus;
  /** 0–1: how much of this file has been sent. */
  progress: number;
  verdict: TModelPhotoVerdict | null;
  /** Why the upload failed (a message in the user's language). */
  error: string | null;
}

/** A batch: at most this many files, and no more bytes than this unless it is a single file. */
export const UPLOAD_BATCH_LIMITS = { files: 3, bytes: 6 * 1024 * 1024 } as const;

/** The next files to send: queued ones in the order chosen, as many as the limits allow (at least one). */
export function nextBatch(
  items: readonly UploadItem[],
  limits: { files: number; bytes: number } = UPLOAD_BATCH_LIMITS,
): UploadItem[] {
  const batch: UploadItem[] = [];
  let bytes = 0;
  for (const item of items) {
    if (item.status !== 'queued') continue;
    if (batch.length >= limits.files) break;
    if (batch.length > 0 && bytes + item.size > limits.bytes) break;
    batch.push(item);
    bytes += item.size;
  }
  return batch;
}

/**
 * Each file's share of a batch's progress: the body carries the files one after another, so a
 * file is sent once the bytes before it and its own are (multipart headers are small enough to
 * leave out).
 */
export function spreadProgress(sizes: readonly number[], fraction: number): number[] {
  const total = sizes.reduce((sum, size) => sum + size, 0);
  const sent = Math.min(1, Math.max(0, fraction)) * total;
  let offset = 0;
  return sizes.map((size) => {
    const start = offset;
    offset += size;
    if (size <= 0) return sent >= start && fraction > 0 ? 1 : 0;
    return Math.min(1, Math.max(0, (sent - start) / size));
  });
}

export type ChosenFile = Pick<UploadItem, 'id' | 'name' | 'size' | 'preview'>;

export type UploadAction =
  | { type: 'added'; files: readonly ChosenFile[] }
  /** Files refused before sending (not a photo type): judged here with the server's own code. */
  | { type: 'refused'; files: readonly ChosenFile[] }
  | { type: 'sending'; ids: readonly string[] }
  | { type: 'progressed'; ids: readonly string[]; fraction: number }
  | { type: 'judged'; ids: readonly string[]; verdicts: readonly TModelPhotoVerdict[] }
  | { type: 'failed'; ids: readonly string[]; error: string }
  | { type: 'retried'; ids: readonly string[] }
  /** Dismissed by the user, or shown from the model's own photo list from now on. */
  | { type: 'removed'; ids: readonly string[] };

const refusedVerdict = (name: string): TModelPhotoVerdict => ({
  uuid: null,
  filename: name,
  ok: false,
  problems: ['file.unsupported'],
  tips: [],
  pose: null,
  thumbnail_url: null,
});

function newItem(file: ChosenFile): UploadItem {
  return { ...file, status: 'queued', progress: 0, verdict: null, error: null };
}

export function reduceUploads(items: readonly UploadItem[], action: UploadAction): UploadItem[] {
  switch (action.type) {
    case 'added':
      return [...items, ...action.files.map(newItem)];
    case 'refused':
      return [
        ...items,
        ...action.files.map((file): UploadItem => ({
          ...newItem(file),
          status: 'judged',
          progress: 1,
          verdict: refusedVerdict(file.name),
        })),
      ];
    case 'sending': {
      const ids = new Set(action.ids);
      return items.map((item) =>
        ids.has(item.id) ? { ...item, status: 'uploading', progress: 0, error: null } : item,
      );
    }
    case 'progressed': {
      const inBatch = items.filter((item) => action.ids.includes(item.id));
      const shares = spreadProgress(
        action.ids.map((id) => inBatch.find((item) => item.id === id)?.size ?? 0),
        action.fraction,
      );
      return items.map((item) => {
        const index = action.ids.indexOf(item.id);
        if (index === -1 || (item.status !== 'uploading' && item.status !== 'checking')) return item;
        // Progress only moves forward; a fully sent file waits for its verdict.
        const progress = Math.max(item.progress, shares[index] ?? 0);
        return { ...item, progress, status: progress >= 1 ? 'checking' : 'uploading' };
      });
    }
    case 'judged':
      // Verdicts come in the order the files were sent.
      return items.map((item) => {
        const index = action.ids.indexOf(item.id);
        if (index === -1) return item;
        const verdict = action.verdicts[index];
        return verdict
          ? { ...item, status: 'judged', progress: 1, verdict, error: null }
          : { ...item, status: 'failed', error: null };
      });
    case 'failed': {
      const ids = new Set(action.ids);
      return items.map((item) =>
        ids.has(item.id) ? { ...item, status: 'failed', error: action.error } : item,
      );
    }
    case 'retried': {
      const ids = new Set(action.ids);
      return items.map((item) =>
        ids.has(item.id) && item.status === 'failed'
          ? { ...item, status: 'queued', progress: 0, error: null }
          : item,
      );
    }
    case 'removed': {
      const ids = new Set(action.ids);
      return items.filter((item) => !ids.has(item.id));
    }
  }
}

/** Whether anything is still on its way to a verdict (the train button waits for it). */
export const isUploading = (items: readonly UploadItem[]) =>
  items.some((item) => item.status === 'queued' || item.status === 'uploading' || item.status === 'checking');

/** The judged items whose photos were stored, by their photo uuid (they join the model's list). */
export function storedItemIds(items: readonly UploadItem[], storedUuids: ReadonlySet<string>): string[] {
  return items
    .filter((item) => item.status === 'judged' && item.verdict?.uuid && storedUuids.has(item.verdict.uuid))
    .map((item) => item.id);
}
