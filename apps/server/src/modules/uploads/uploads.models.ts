import { createHash } from 'node:crypto';

/** Image types accepted for upload, recognised by their first bytes, never by name or declared type. */
export type UploadImageType = 'jpeg' | 'png' | 'webp' | 'heic';

// ISO-BMFF brands of HEVC-coded HEIF files (iPhone photos are `heic`); `mif1`/`msf1` are the
// generic HEIF brands, HEIC only when the compatible brands do not say AVIF.
const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs']);
const GENERIC_HEIF_BRANDS = new Set(['mif1', 'msf1']);
const AVIF_BRANDS = new Set(['avif', 'avis']);

const ascii = (bytes: Uint8Array, start: number, end: number) =>
  String.fromCharCode(...bytes.subarray(start, end));

export function detectImageType(bytes: Uint8Array): UploadImageType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (
    bytes.length >= 8 &&
    [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((value, index) => bytes[index] === value)
  ) {
    return 'png';
  }
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'webp';
  if (bytes.length >= 16 && ascii(bytes, 4, 8) === 'ftyp') {
    const boxSize = Math.min(
      bytes.length,
      (bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!,
    );
    const major = ascii(bytes, 8, 12);
    const compatible: string[] = [];
    for (let offset = 16; offset + 4 <= boxSize; offset += 4)
      compatible.push(ascii(bytes, offset, offset + 4));
    if (HEIC_BRANDS.has(major)) return 'heic';
    if (GENERIC_HEIF_BRANDS.has(major)) {
      if (compatible.some((brand) => HEIC_BRANDS.has(brand))) return 'heic';
      if (compatible.some((brand) => AVIF_BRANDS.has(brand))) return null;
      return 'heic';
    }
  }
  return null;
}

/**
 * A recorded voice (a talking photo's), recognised by its first bytes: what browsers'
 * MediaRecorder writes (WebM/Opus in Chromium and Firefox, MP4/AAC in Safari, Ogg/Opus) or a WAV.
 */
export type UploadAudioType = 'webm' | 'ogg' | 'mp4' | 'wav';

export const AUDIO_CONTENT_TYPES: Record<UploadAudioType, string> = {
  webm: 'audio/webm',
  ogg: 'audio/ogg',
  mp4: 'audio/mp4',
  wav: 'audio/wav',
};

/** The most a recording may weigh: 15 s of the richest browser audio is well under 1 MB. */
export const AUDIO_MAX_BYTES = 2 * 1024 * 1024;

export function detectAudioType(bytes: Uint8Array): UploadAudioType | null {
  if (bytes.length >= 4 && bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) {
    return 'webm';
  }
  if (bytes.length >= 4 && ascii(bytes, 0, 4) === 'OggS') return 'ogg';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WAVE') return 'wav';
  // An MP4 whose brand says audio (M4A), or the brands Safari's recorder writes.
  if (
    bytes.length >= 12 &&
    ascii(bytes, 4, 8) === 'ftyp' &&
    /^(M4A |mp4[12]|isom|iso[2-6])$/.test(ascii(bytes, 8, 12))
  ) {
    return 'mp4';
  }
  return null;
}

export function audioStorageKey(userId: number, uuid: string, type: UploadAudioType): string {
  return `uploads/${userId}/${uuid}.${type === 'mp4' ? 'm4a' : type}`;
}

/** Uploads are stored as JPEG (photos) or PNG (only when transparency is really used). */
export type StoredImageFormat = 'jpeg' | 'png';

export const STORED_CONTENT_TYPES: Record<StoredImageFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
};

export function storedFormatFor(hasTransparency: boolean): StoredImageFormat {
  return hasTransparency ? 'png' : 'jpeg';
}

export function uploadStorageKey(userId: number, uuid: string, format: StoredImageFormat): string {
  return `uploads/${userId}/${uuid}.${format === 'jpeg' ? 'jpg' : 'png'}`;
}

/**
 * A stable upload id derived from what it copies (e.g. `post-image:<user>:<post>`), so asking for
 * the same copy again, or twice at once, names the same upload. Shaped as a version-8 (custom)
 * UUID with the RFC variant bits.
 */
export function derivedUploadUuid(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export function exceedsPixelLimit(width: number, height: number, maxPixels: number): boolean {
  return width * height > maxPixels;
}

/** "15" for 15, "0.5" for 0.5: how a size limit reads in a message. */
export function formatMegabytes(megabytes: number): string {
  return String(Math.round(megabytes * 100) / 100);
}

/** True when any pixel of RGBA data is not fully opaque. */
export function hasTransparentPixel(rgba: Uint8Array): boolean {
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] !== 255) return true;
  return false;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string) => UUID.test(value);
