/**
 * Real face photos for tests, without committing a photo: they come from Debian packages, fetched
 * with `apt-get download` (only Debian's mirror, the same one CI installs from) and unpacked with
 * `dpkg -x` into a cache that outlives the run (`os.tmpdir()/mirra-test-faces/`, or
 * MIRRA_TEST_FACES_DIR). When the cache is empty and apt cannot fetch, loading fails with the
 * reason: face tests must not pass by skipping.
 *
 * Sources and licences, as the packages state them:
 * - `astronaut.png` (Eileen Collins, one frontal face) and `camera.png` (the cameraman, one face in
 *   semi-profile, greyscale), `coffee.png` (a cup, no face) from `python3-skimage`
 *   (skimage/data/). scikit-image's docstrings (skimage/data/_fetchers.py): the astronaut is from
 *   the NASA Great Images database, "No known copyright restrictions, released into the public
 *   domain"; the cameraman and the coffee: "No copyright restrictions. CC0 by the photographer".
 * - `grace_hopper.jpg` (Grace Hopper in uniform, one frontal face, wearing glasses) from
 *   `python-matplotlib-data` (mpl-data/sample_data/). The package's copyright file has no stanza
 *   of its own for it (only matplotlib's licence for `Files: *`); the JPEG's comment names its
 *   source, "File source: http://commons.wikimedia.org/wiki/File:Grace_Hopper.jpg". It is the
 *   official U.S. Navy portrait of Commodore Hopper (1984), a work of the U.S. federal government
 *   and so in the public domain, which is how Wikimedia Commons lists it.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';

const run = promisify(execFile);

const PHOTOS = {
  astronaut: { debian: 'python3-skimage', path: 'usr/lib/python3/dist-packages/skimage/data/astronaut.png' },
  cameraman: { debian: 'python3-skimage', path: 'usr/lib/python3/dist-packages/skimage/data/camera.png' },
  coffee: { debian: 'python3-skimage', path: 'usr/lib/python3/dist-packages/skimage/data/coffee.png' },
  graceHopper: {
    debian: 'python-matplotlib-data',
    path: 'usr/share/matplotlib/mpl-data/sample_data/grace_hopper.jpg',
  },
} as const;

export type TestPhotoName = keyof typeof PHOTOS;

export interface TestFaces {
  /** 512×512 PNG, one frontal face (about 145 px wide), no glasses. */
  astronaut: Buffer;
  /** 512×600 JPEG, one frontal face (about 285 px wide) with glasses; a different person. */
  graceHopper: Buffer;
  /** 512×512 greyscale PNG, one face turned about 45° (semi-profile). */
  cameraman: Buffer;
  /** 400×600 PNG of a coffee cup: no face. */
  coffee: Buffer;
}

export function testFacesDir(): string {
  return process.env.MIRRA_TEST_FACES_DIR ?? path.join(os.tmpdir(), 'mirra-test-faces');
}

let loaded: Promise<TestFaces> | null = null;

/** The photos, fetched once per machine (a few seconds) and read from the cache afterwards. */
export function loadTestFaces(): Promise<TestFaces> {
  loaded ??= readOrFetch();
  return loaded;
}

async function readOrFetch(): Promise<TestFaces> {
  const dir = testFacesDir();
  const names = Object.keys(PHOTOS) as TestPhotoName[];
  const missing: TestPhotoName[] = [];
  for (const name of names) {
    if (!(await isFile(path.join(dir, fileName(name))))) missing.push(name);
  }
  if (missing.length > 0) await fetchIntoCache(dir, missing);
  const entries = await Promise.all(
    names.map(async (name) => [name, await readFile(path.join(dir, fileName(name)))] as const),
  );
  return Object.fromEntries(entries) as unknown as TestFaces;
}

function fileName(name: TestPhotoName): string {
  return path.basename(PHOTOS[name].path);
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).size > 0;
  } catch {
    return false;
  }
}

async function fetchIntoCache(dir: string, names: TestPhotoName[]): Promise<void> {
  const packages = [...new Set(names.map((name) => PHOTOS[name].debian))];
  const work = await mkdtemp(path.join(os.tmpdir(), 'mirra-test-faces-fetch-'));
  try {
    await downloadDebs(packages, work);
    const debs = (await readdir(work)).filter((file) => file.endsWith('.deb'));
    const unpacked = path.join(work, 'root');
    for (const deb of debs) await run('dpkg', ['-x', path.join(work, deb), unpacked]);
    await mkdir(dir, { recursive: true });
    for (const name of names) {
      // Copy then rename: test files run in parallel and may fill the cache at the same moment;
      // a reader must never see half a file.
      const target = path.join(dir, fileName(name));
      const partial = `${target}.${process.pid}.partial`;
      await copyFile(path.join(unpacked, PHOTOS[name].path), partial);
      await rename(partial, target);
    }
  } catch (error) {
    throw new Error(
      `Test face photos are missing from ${dir} and could not be fetched from Debian ` +
        `(apt-get download ${packages.join(' ')}; dpkg -x). Face tests need them and do not skip. ` +
        `Fix apt access (apt-get update) or put ${names.map(fileName).join(', ')} into ${dir} ` +
        `(or set MIRRA_TEST_FACES_DIR). Cause: ${(error as Error).message}`,
      { cause: error },
    );
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function downloadDebs(packages: string[], cwd: string): Promise<void> {
  const download = () => run('apt-get', ['download', ...packages], { cwd, timeout: 120_000 });
  try {
    await download();
  } catch (error) {
    // Fresh CI images often ship without package lists; root may refresh them and retry once.
    if (process.getuid?.() !== 0) throw error;
    await run('apt-get', ['update'], { timeout: 300_000 });
    await download();
  }
}

// --- Photos derived from the portraits -------------------------------------------------------

/**
 * "Several photos of one person" from one portrait, since no offline set has several real photos
 * of one person: each variant is a different crop, mirrored or not, slightly rotated, lighter or
 * darker, and re-encoded as JPEG. No two variants share every setting (up to 25 of them), so none
 * is a re-saved copy of another. Deterministic, so failures reproduce.
 */
export async function makePhotoSet(portrait: Buffer, count = 15): Promise<Buffer[]> {
  const { width = 0, height = 0 } = await sharp(portrait).metadata();
  const photos: Buffer[] = [];
  for (let i = 0; i < count; i += 1) {
    const round = Math.floor(i / 5);
    const angle = [-8, -4, 0, 4, 8][i % 5] ?? 0;
    const brightness = [1, 0.8, 1.15, 0.9, 1.05][(i * 2 + round) % 5] ?? 1;
    const keep = 0.78 + 0.04 * ((i + round * 2) % 5);
    const cropWidth = Math.round(width * keep);
    const cropHeight = Math.round(height * keep);
    const left = Math.round(((width - cropWidth) * ((i * 3 + round) % 5)) / 4);
    const top = Math.round(((height - cropHeight) * ((i * 7 + round * 3) % 5)) / 8);
    let image = sharp(portrait)
      .extract({ left, top, width: cropWidth, height: cropHeight })
      .rotate(angle, { background: '#808080' })
      .modulate({ brightness });
    if ((i + round) % 2 === 1) image = image.flop();
    photos.push(await image.jpeg({ quality: 85 + (i % 3) * 5 }).toBuffer());
  }
  return photos;
}

let astronautSet: Promise<Buffer[]> | null = null;

/** Fifteen photos of one real person (the astronaut portrait's variants), made once per process. */
export function astronautPhotos(): Promise<Buffer[]> {
  astronautSet ??= loadTestFaces().then((faces) => makePhotoSet(faces.astronaut, 15));
  return astronautSet;
}

/** Two portraits side by side at the same height: a photo with two people. */
export async function composeSideBySide(left: Buffer, right: Buffer, height = 512): Promise<Buffer> {
  const [a, b] = await Promise.all(
    [left, right].map((photo) => sharp(photo).resize({ height }).removeAlpha().png().toBuffer()),
  );
  const widthA = (await sharp(a).metadata()).width ?? 0;
  const widthB = (await sharp(b).metadata()).width ?? 0;
  return sharp({
    create: { width: widthA + widthB, height, channels: 3, background: '#808080' },
  })
    .composite([
      { input: a, left: 0, top: 0 },
      { input: b, left: widthA, top: 0 },
    ])
    .png()
    .toBuffer();
}

/** The portrait small in the middle of a large plain canvas: a face far too small in the frame. */
export async function shrinkIntoCanvas(portrait: Buffer, canvas = 2048, size = 256): Promise<Buffer> {
  const small = await sharp(portrait).resize({ width: size }).removeAlpha().png().toBuffer();
  const smallHeight = (await sharp(small).metadata()).height ?? size;
  return sharp({ create: { width: canvas, height: canvas, channels: 3, background: '#8a9199' } })
    .composite([
      { input: small, left: Math.round((canvas - size) / 2), top: Math.round((canvas - smallHeight) / 2) },
    ])
    .png()
    .toBuffer();
}

/** Out of focus: a Gaussian blur of `sigma` pixels of the photo as it is. */
export function blurPhoto(photo: Buffer, sigma = 3): Promise<Buffer> {
  return sharp(photo).blur(sigma).png().toBuffer();
}

/**
 * The camera moved during the shot: the photo and a copy `shift` pixels to the right, averaged
 * (a double image).
 */
export function shakePhoto(photo: Buffer, shift = 40): Promise<Buffer> {
  const side = 2 * shift + 1;
  const kernel = new Array<number>(side * side).fill(0);
  kernel[shift * side] = 1;
  kernel[shift * side + 2 * shift] = 1;
  return sharp(photo).convolve({ width: side, height: side, kernel, scale: 2 }).png().toBuffer();
}

/** Low light: every channel scaled down (0.3 keeps the face detectable but dim). */
export function darkenPhoto(photo: Buffer, factor = 0.3): Promise<Buffer> {
  return sharp(photo).linear(factor, 0).png().toBuffer();
}
