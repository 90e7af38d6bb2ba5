import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Readable } from 'node:stream';
import { GenerationStatus } from '@mirra/contracts';
import { notFound } from '../../shared/errors.js';
import { zipStream, type ZipStreamEntry } from '../../shared/zip-stream.js';
import type { UserRow } from '../users/index.js';
import type { GenerationsDeps } from './generations.deps.js';
import { generationsRepository } from './generations.repository.js';
import { generationNotFound } from './generations.usecases.js';

/** How long an album's download link works. */
export const ARCHIVE_LINK_SECONDS = 15 * 60;

type ArchiveDeps = Pick<GenerationsDeps, 'db' | 'storage' | 'now'> & { linkSecret: string };

const signature = (secret: string, payload: string) =>
  createHmac('sha256', `${secret}:set-archive`).update(payload).digest('base64url');

/**
 * `<user id>.<set uuid>.<expiry, unix seconds>.<HMAC>`: the download needs no session, so a plain
 * link works in any browser and in Telegram's download prompt; it names one of the person's runs
 * and lasts minutes.
 */
export function archiveKey(secret: string, userId: number, setUuid: string, expiresAt: Date): string {
  const payload = `${userId}.${setUuid}.${Math.floor(expiresAt.getTime() / 1000)}`;
  return `${payload}.${signature(secret, payload)}`;
}

function readArchiveKey(secret: string, key: string, now: Date): { userId: number; setUuid: string } | null {
  const match = /^([1-9]\d{0,15})\.([0-9a-f-]{36})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(key);
  if (!match) return null;
  const expected = Buffer.from(signature(secret, `${match[1]}.${match[2]}.${match[3]}`));
  const given = Buffer.from(match[4]!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  if (Number(match[3]) * 1000 < now.getTime()) return null;
  return { userId: Number(match[1]), setUuid: match[2]! };
}

/** A link to download the finished pictures of one of my runs (an album) as a ZIP. */
export async function createArchiveLink(deps: ArchiveDeps, user: UserRow, setUuid: string) {
  const rows = await generationsRepository.listSet(deps.db, user.id, setUuid);
  if (!rows.length) throw generationNotFound();
  const expiresAt = new Date(deps.now().getTime() + ARCHIVE_LINK_SECONDS * 1000);
  const key = archiveKey(deps.linkSecret, user.id, setUuid, expiresAt);
  return {
    url: `/api/generations/sets/archive/?key=${encodeURIComponent(key)}`,
    expires_at: expiresAt.toISOString(),
  };
}

/**
 * The run's finished pictures as one ZIP, in their order (`mirra-01.jpg`, ...), each the stored
 * original with its provenance marks; pictures that failed or are still being made are left out.
 * Streamed one file at a time.
 */
export async function archiveOfSet(
  deps: ArchiveDeps,
  key: string,
): Promise<{ fileName: string; stream: Readable }> {
  const named = readArchiveKey(deps.linkSecret, key, deps.now());
  if (!named) throw notFound();
  const rows = await generationsRepository.listSet(deps.db, named.userId, named.setUuid);
  const finished = rows.filter((row) => row.status === GenerationStatus.COMPLETED && row.result?.original);
  if (!finished.length) throw notFound();
  async function* entries(): AsyncGenerator<ZipStreamEntry> {
    for (const row of finished) {
      const original = row.result!.original;
      const extension = original.contentType.split('/')[1]?.replace('jpeg', 'jpg') ?? 'bin';
      const number = String((row.setIndex ?? 0) + 1).padStart(2, '0');
      yield {
        name: `mirra-${number}.${extension}`,
        read: async () => (await deps.storage.get(original.key))?.data ?? null,
      };
    }
  }
  return { fileName: `mirra-album-${named.setUuid.slice(0, 8)}.zip`, stream: zipStream(entries()) };
}
