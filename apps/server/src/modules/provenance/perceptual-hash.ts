import sharp from 'sharp';

/*
 * A 64-bit DCT perceptual hash (pHash): the picture in grey at 32×32, its 2-D DCT, and one bit per
 * coefficient of the lowest 8×8 frequencies (above or below their median). Re-encoding, resizing
 * and metadata removal change a few bits at most; a different picture differs in about half.
 */

const SIZE = 32;
const LOW = 8;

const COSINES = Array.from({ length: LOW }, (_, u) =>
  Array.from({ length: SIZE }, (_, x) => Math.cos(((2 * x + 1) * u * Math.PI) / (2 * SIZE))),
);

/** The picture's pHash as an unsigned 64-bit integer. */
export async function perceptualHash(image: Buffer): Promise<bigint> {
  const grey = await sharp(image, { limitInputPixels: false })
    .flatten({ background: '#ffffff' })
    .greyscale()
    .resize(SIZE, SIZE, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer();
  // Rows first, then columns, keeping only the low 8 frequencies each way.
  const rows: number[][] = [];
  for (let y = 0; y < SIZE; y++) {
    rows.push(COSINES.map((cos) => cos.reduce((sum, c, x) => sum + c * grey[y * SIZE + x]!, 0)));
  }
  const coefficients: number[] = [];
  for (let v = 0; v < LOW; v++) {
    for (let u = 0; u < LOW; u++) {
      coefficients.push(COSINES[v]!.reduce((sum, c, y) => sum + c * rows[y]![u]!, 0));
    }
  }
  // The DC term (overall brightness) says nothing about the picture's shape: left out of the median.
  const median = [...coefficients.slice(1)].sort((a, b) => a - b)[31]!;
  let hash = 0n;
  for (const coefficient of coefficients) hash = (hash << 1n) | (coefficient > median ? 1n : 0n);
  return hash;
}

/** Differing bits of two hashes. */
export function hammingDistance(a: bigint, b: bigint): number {
  let diff = a ^ b;
  let count = 0;
  while (diff) {
    diff &= diff - 1n;
    count++;
  }
  return count;
}

/** The four 16-bit bands of a hash, searched one index each: any hash within 3 bits shares one band exactly. */
export function hashBands(hash: bigint): [number, number, number, number] {
  return [
    Number((hash >> 48n) & 0xffffn),
    Number((hash >> 32n) & 0xffffn),
    Number((hash >> 16n) & 0xffffn),
    Number(hash & 0xffffn),
  ];
}

/** A hash as PostgreSQL's signed bigint holds it. */
export const toSigned = (hash: bigint): bigint => BigInt.asIntN(64, hash);
export const fromSigned = (value: bigint | string | number): bigint => BigInt.asUintN(64, BigInt(value));
