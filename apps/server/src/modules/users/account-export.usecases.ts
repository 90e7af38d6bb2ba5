import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Readable } from 'node:stream';
import { notFound } from '../../shared/errors.js';
import { zipStream, type ZipStreamEntry } from '../../shared/zip-stream.js';
import { accountExportRepository } from './account-export.repository.js';
import type { UsersDeps } from './users.deps.js';
import type { UserRow } from './users.repository.js';

/** How long an export link works: long enough to start the download, short enough not to leak. */
export const EXPORT_LINK_SECONDS = 15 * 60;

const signature = (secret: string, payload: string) =>
  createHmac('sha256', `${secret}:account-export`).update(payload).digest('base64url');

/**
 * `<user id>.<expiry, unix seconds>.<nonce>.<HMAC>`: the download needs no session (a plain link
 * works in any browser and in Telegram's download prompt), so the nonce makes each link usable once.
 */
export function exportKey(secret: string, userId: number, expiresAt: Date, nonce: string): string {
  const payload = `${userId}.${Math.floor(expiresAt.getTime() / 1000)}.${nonce}`;
  return `${payload}.${signature(secret, payload)}`;
}

/** The user and nonce a key names while it is valid; null for a forged, altered or expired key. */
export function readExportKey(
  secret: string,
  key: string,
  now: Date,
): { userId: number; nonce: string } | null {
  const match = /^([1-9]\d{0,15})\.(\d{1,12})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/.exec(key);
  if (!match) return null;
  const expected = Buffer.from(signature(secret, `${match[1]}.${match[2]}.${match[3]}`));
  const given = Buffer.from(match[4]!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  if (Number(match[2]) * 1000 < now.getTime()) return null;
  return { userId: Number(match[1]), nonce: match[3]! };
}

export function createExportLink(deps: Pick<UsersDeps, 'config' | 'linkSecret' | 'now'>, user: UserRow) {
  const expiresAt = new Date(deps.now().getTime() + EXPORT_LINK_SECONDS * 1000);
  const key = exportKey(deps.linkSecret, user.id, expiresAt, randomBytes(16).toString('base64url'));
  return {
    url: `/api/users/me/export/download/?key=${encodeURIComponent(key)}`,
    expires_at: expiresAt.toISOString(),
  };
}

/**
 * Everything Mirra holds about the person, as one ZIP: `account.json` (the profile), a JSON file
 * per kind of record (generations, posts, models, uploads, credit and wallet ledgers, payments,
 * subscription, partner commissions and pay-outs, notifications), and their photos, model photos
 * and results as files. Streamed one file at a time.
 */
export async function exportAccount(
  deps: Pick<UsersDeps, 'db' | 'storage' | 'linkSecret' | 'now' | 'rateLimiter'>,
  key: string,
  options: { isDownload: boolean },
): Promise<{ fileName: string; stream: Readable }> {
  const link = readExportKey(deps.linkSecret, key, deps.now());
  // Whoever else gets hold of a used link (history, a shared screen, a proxy log) finds nothing.
  // A HEAD (a download manager looking first) does not use it up.
  if (link && options.isDownload && !(await deps.rateLimiter.claimOnce(`export-link:${link.nonce}`))) {
    throw notFound();
  }
  const userId = link?.userId ?? null;
  if (userId === null) throw notFound();
  return exportAccountOf(deps, userId);
}

/**
 * The same ZIP for one account by its id: the person's own link, or staff answering the person's
 * request for their data (the console, audited). An account deleted already has nothing to give.
 */
export async function exportAccountOf(
  deps: Pick<UsersDeps, 'db' | 'storage' | 'now'>,
  userId: number,
): Promise<{ fileName: string; stream: Readable }> {
  const profile = await accountExportRepository.profile(deps.db, userId);
  if (!profile) throw notFound();
  const json = (name: string, value: unknown): ZipStreamEntry => ({
    name,
    read: async () => Buffer.from(JSON.stringify(value, null, 2)),
  });
  async function* entries(): AsyncGenerator<ZipStreamEntry> {
    yield json('account.json', profile);
    for (const table of accountExportRepository.tables) {
      yield json(`${table}.json`, await accountExportRepository.rowsOf(deps.db, table, userId));
    }
    for (const file of await accountExportRepository.files(deps.db, userId)) {
      yield { name: file.name, read: async () => (await deps.storage.get(file.key))?.data ?? null };
    }
  }
  const day = deps.now().toISOString().slice(0, 10);
  return { fileName: `mirra-data-${day}.zip`, stream: zipStream(entries()) };
}
