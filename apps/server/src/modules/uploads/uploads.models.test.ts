import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../shared/config.js';
import { pngBomb, TINY_HEIC, twoToneImage } from '../../test/images.js';
import {
  detectImageType,
  exceedsPixelLimit,
  formatMegabytes,
  hasTransparentPixel,
  storedFormatFor,
  uploadStorageKey,
} from './uploads.models.js';

const ftyp = (major: string, ...compatible: string[]) => {
  const brands = [major, '\0\0\0\0', ...compatible].join('');
  const box = Buffer.concat([Buffer.alloc(4), Buffer.from(`ftyp${brands}`, 'latin1')]);
  box.writeUInt32BE(box.length);
  return Buffer.concat([box, Buffer.alloc(16)]);
};

describe('detectImageType', () => {
  it('recognises each accepted type by its first bytes', async () => {
    expect(detectImageType(await twoToneImage(8, 8, 'jpeg'))).toBe('jpeg');
    expect(detectImageType(await twoToneImage(8, 8, 'png'))).toBe('png');
    expect(detectImageType(await twoToneImage(8, 8, 'webp'))).toBe('webp');
    expect(detectImageType(TINY_HEIC)).toBe('heic');
    expect(detectImageType(pngBomb(16, 16))).toBe('png');
  });

  it.each([
    ['heic', ftyp('heic', 'mif1', 'heic'), 'heic'],
    ['heix', ftyp('heix', 'mif1'), 'heic'],
    ['generic HEIF with HEIC inside', ftyp('mif1', 'mif1', 'heic'), 'heic'],
    ['generic HEIF alone', ftyp('mif1', 'mif1'), 'heic'],
    ['AVIF', ftyp('avif', 'mif1', 'miaf'), null],
    ['generic HEIF with AVIF inside', ftyp('mif1', 'mif1', 'avif'), null],
    ['MP4 video', ftyp('isom', 'iso2', 'mp41'), null],
    ['QuickTime', ftyp('qt  '), null],
  ])('reads ISO-BMFF brands: %s', (_name, bytes, expected) => {
    expect(detectImageType(bytes)).toBe(expected);
  });

  it.each([
    ['text', Buffer.from('hello, this is not an image')],
    ['empty', Buffer.alloc(0)],
    ['GIF', Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1')],
    ['PDF', Buffer.from('%PDF-1.7\n', 'latin1')],
    ['SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')],
    ['RIFF that is not WebP', Buffer.from('RIFF\0\0\0\0WAVEfmt ', 'latin1')],
    ['two bytes of JPEG', Buffer.from([0xff, 0xd8])],
  ])('refuses %s', (_name, bytes) => {
    expect(detectImageType(bytes)).toBeNull();
  });

  it('is not fooled by an AVIF made by sharp', async () => {
    expect(
      detectImageType(
        await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
          .avif()
          .toBuffer(),
      ),
    ).toBeNull();
  });
});

describe('upload rules', () => {
  it('stores photos as JPEG and transparent images as PNG, under the owner', () => {
    expect(storedFormatFor(false)).toBe('jpeg');
    expect(storedFormatFor(true)).toBe('png');
    expect(uploadStorageKey(7, 'a1b2', 'jpeg')).toBe('uploads/7/a1b2.jpg');
    expect(uploadStorageKey(7, 'a1b2', 'png')).toBe('uploads/7/a1b2.png');
  });

  it('counts pixels against the limit', () => {
    expect(exceedsPixelLimit(20_000, 20_000, 50_000_000)).toBe(true);
    expect(exceedsPixelLimit(8000, 6250, 50_000_000)).toBe(false);
    expect(exceedsPixelLimit(8000, 6251, 50_000_000)).toBe(true);
  });

  it('finds transparency in RGBA data', () => {
    expect(hasTransparentPixel(Uint8Array.from([1, 2, 3, 255, 4, 5, 6, 255]))).toBe(false);
    expect(hasTransparentPixel(Uint8Array.from([1, 2, 3, 255, 4, 5, 6, 254]))).toBe(true);
  });

  it('words a size limit plainly', () => {
    expect(formatMegabytes(15)).toBe('15');
    expect(formatMegabytes(0.5)).toBe('0.5');
    expect(formatMegabytes(2.3456)).toBe('2.35');
  });

  it('defaults to 15 MB, 50 megapixels and 4096 px', () => {
    const { uploads } = parseConfig({});
    expect(uploads).toEqual({
      maxMegabytes: 15,
      maxBytes: 15 * 1024 * 1024,
      maxPixels: 50_000_000,
      maxSide: 4096,
    });
  });
});
