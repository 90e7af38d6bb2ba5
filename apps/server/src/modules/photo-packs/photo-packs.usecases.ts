import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { emojiArtSvg } from '@mirra/imaging';
import type { z } from 'zod';
import {
  modeDeclaration,
  PHOTO_PACK_MODE,
  type TImageAspect,
  type TLanguage,
  type TPhotoPack,
  type TStaffPhotoPack,
  type ZStaffPhotoPackFields,
} from '@mirra/contracts';
import { AppError, fieldError } from '../../shared/errors.js';
import type { RecordStaffChange } from '../../shared/staff-audit.js';
import { loadUploadsForGeneration } from '../uploads/index.js';
import type { PhotoPacksDeps } from './photo-packs.deps.js';
import { inLanguage, packPrice, packShares } from './photo-packs.models.js';
import { photoPacksRepository, type PhotoPackRow } from './photo-packs.repository.js';

/** How long a cover's signed URL lasts: the catalogue is read again well within it. */
const COVER_URL_SECONDS = 6 * 60 * 60;
/** Covers are kept at this width: a card is at most half a phone's width at 3× density. */
const COVER_WIDTH = 720;

/** The console's price of one picture of a pack whose own price is unset. */
async function perPicturePrice(deps: Pick<PhotoPacksDeps, 'pricing'>): Promise<number> {
  const { prices } = await deps.pricing.current();
  return prices[modeDeclaration(PHOTO_PACK_MODE).price.key as keyof typeof prices];
}

/** Each emoji's art as a data URL, made once per process (the art set is read from disk). */
const emojiArt = new Map<string, string | null>();
function emojiArtUrl(emoji: string): string | null {
  if (!emojiArt.has(emoji)) {
    const svg = emojiArtSvg(emoji);
    emojiArt.set(emoji, svg ? `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` : null);
  }
  return emojiArt.get(emoji)!;
}

function coverUrl(deps: PhotoPacksDeps, row: PhotoPackRow): string | null {
  return row.coverKey
    ? deps.mediaUrls.url(row.coverKey, deps.now(), { ttlSeconds: COVER_URL_SECONDS })
    : null;
}

/** The packs on sale, in the reader's language, each with the price of the whole pack. */
export async function photoPackCatalogue(
  deps: PhotoPacksDeps,
  language: TLanguage,
): Promise<{ results: TPhotoPack[] }> {
  const [rows, perPicture] = await Promise.all([
    photoPacksRepository.listOnSale(deps.db),
    perPicturePrice(deps),
  ]);
  return {
    results: rows.map((row) => ({
      uuid: row.uuid,
      title: inLanguage(row.titles, language),
      description: inLanguage(row.descriptions, language),
      emoji: row.emoji,
      emoji_art: emojiArtUrl(row.emoji),
      cover_url: coverUrl(deps, row),
      pictures: row.prompts.length,
      aspect: row.aspect as TImageAspect,
      price: packPrice(row.price, row.prompts.length, perPicture),
    })),
  };
}

const packNotOffered = () =>
  fieldError('generations.pack_unavailable', { 'settings.pack': ['This photo pack is no longer offered.'] });

/**
 * What one purchase of a pack makes: a picture per prompt, in the pack's frame shape, each charged
 * its share of the pack's price (read once, so the run is charged what the catalogue showed now).
 */
export async function photoPackRun(
  deps: Pick<PhotoPacksDeps, 'db' | 'pricing'>,
  uuid: string,
): Promise<{ prompts: string[]; aspect: TImageAspect; price: number; shares: number[] }> {
  const row = await photoPacksRepository.findOnSale(deps.db, uuid);
  if (!row) throw packNotOffered();
  const price = packPrice(row.price, row.prompts.length, await perPicturePrice(deps));
  return {
    prompts: row.prompts,
    aspect: row.aspect as TImageAspect,
    price,
    shares: packShares(price, row.prompts.length),
  };
}

function toStaffJson(deps: PhotoPacksDeps, row: PhotoPackRow, perPicture: number): TStaffPhotoPack {
  return {
    uuid: row.uuid,
    titles: row.titles,
    descriptions: row.descriptions,
    emoji: row.emoji,
    emoji_art: emojiArtUrl(row.emoji),
    prompts: row.prompts,
    aspect: row.aspect as TImageAspect,
    price: row.price,
    position: row.position,
    retired: row.retiredAt !== null,
    cover_url: coverUrl(deps, row),
    effective_price: packPrice(row.price, row.prompts.length, perPicture),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Every pack, retired ones too, for the console. */
export async function staffPhotoPacks(deps: PhotoPacksDeps): Promise<{ results: TStaffPhotoPack[] }> {
  const [rows, perPicture] = await Promise.all([
    photoPacksRepository.listAll(deps.db),
    perPicturePrice(deps),
  ]);
  return { results: rows.map((row) => toStaffJson(deps, row, perPicture)) };
}

type StaffFields = z.output<typeof ZStaffPhotoPackFields>;

/**
 * Creates a pack or changes one, with its cover from one of the staff member's
 * uploads when one is named; the change and its audit entry commit together. A cover is stored
 * before the transaction and the one it replaces is deleted after it, so a failed change leaves at
 * worst an unused file, never a pack without its cover.
 */
export async function savePhotoPack(
  deps: PhotoPacksDeps,
  staffUserId: number,
  target: { uuid: string; create: boolean },
  fields: StaffFields & { cover_upload?: string | null },
  record: RecordStaffChange,
): Promise<TStaffPhotoPack> {
  const { cover_upload: coverUpload, retired, ...rest } = fields;
  const { uuid: packUuid, create } = target;
  const coverKey = coverUpload ? await storeCover(deps, staffUserId, packUuid, coverUpload) : undefined;
  const now = deps.now();
  const values = {
    titles: rest.titles,
    descriptions: rest.descriptions,
    emoji: rest.emoji,
    prompts: rest.prompts,
    aspect: rest.aspect,
    price: rest.price,
    position: rest.position,
    updatedAt: now,
    ...(coverKey ? { coverKey } : {}),
  };
  const { row, replacedCover } = await deps.db.transaction(async (tx) => {
    if (create) {
      const row = await photoPacksRepository.insert(tx, packUuid, {
        ...values,
        retiredAt: retired ? now : null,
      });
      await record(tx, { before: null, after: row });
      return { row, replacedCover: null };
    }
    const before = await photoPacksRepository.findForUpdate(tx, packUuid);
    if (!before) throw new AppError({ code: 'common.not_found', detail: 'Not found.' });
    const row = await photoPacksRepository.update(tx, before.id, {
      ...values,
      // Retiring keeps the moment it first happened.
      retiredAt: retired ? (before.retiredAt ?? now) : null,
    });
    await record(tx, { before, after: row });
    return { row, replacedCover: coverKey && before.coverKey !== coverKey ? before.coverKey : null };
  });
  if (replacedCover) await deps.storage.delete(replacedCover);
  return toStaffJson(deps, row, await perPicturePrice(deps));
}

/** The cover, from one of the staff member's uploads, as a JPEG at the catalogue's width. */
async function storeCover(
  deps: PhotoPacksDeps,
  staffUserId: number,
  packUuid: string,
  uploadUuid: string,
): Promise<string> {
  const [upload] = await loadUploadsForGeneration(deps, staffUserId, [uploadUuid]).catch(() => {
    throw fieldError('common.validation', { cover_upload: ['This photo was not found. Upload it again.'] });
  });
  const jpeg = await sharp(upload!.data)
    .rotate()
    .resize({ width: COVER_WIDTH, withoutEnlargement: true })
    .jpeg({ quality: 84, mozjpeg: true })
    .toBuffer();
  const key = `photo-packs/${packUuid}/cover-${randomUUID()}.jpg`;
  await deps.storage.put(key, jpeg, 'image/jpeg');
  return key;
}
