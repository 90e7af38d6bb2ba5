import { eq, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../shared/db/client.js';
import { fromSigned, hammingDistance, hashBands, toSigned } from './perceptual-hash.js';
import type { DevelopmentPair, DevelopmentPairStore } from './provenance-signer.js';
import { blockedPictures, outputHashes, provenanceDevelopmentPair } from './provenance.tables.js';

export const provenanceRepository = {
  async record(db: Db, row: { generationId: number; hash: bigint; mode: string; createdAt: Date }) {
    const [band0, band1, band2, band3] = hashBands(row.hash);
    await db.insert(outputHashes).values({
      generationId: row.generationId,
      hash: toSigned(row.hash),
      band0,
      band1,
      band2,
      band3,
      mode: row.mode,
      createdAt: row.createdAt,
    });
  },

  /** The closest output within `maxDistance` bits: candidates sharing a band exactly, checked bit by bit. */
  async nearest(db: Db, hash: bigint, maxDistance: number) {
    const [band0, band1, band2, band3] = hashBands(hash);
    const candidates = await db
      // As text: the pool reads int8 as a JavaScript number, which keeps only 53 of the 64 bits.
      .select({
        hash: sql<string>`${outputHashes.hash}::text`,
        mode: outputHashes.mode,
        createdAt: outputHashes.createdAt,
      })
      .from(outputHashes)
      .where(
        or(
          eq(outputHashes.band0, band0),
          eq(outputHashes.band1, band1),
          eq(outputHashes.band2, band2),
          eq(outputHashes.band3, band3),
        ),
      )
      .limit(5000);
    let best: { mode: string; createdAt: Date; distance: number } | null = null;
    for (const candidate of candidates) {
      const distance = hammingDistance(hash, fromSigned(BigInt(candidate.hash)));
      if (distance <= maxDistance && (!best || distance < best.distance)) {
        best = { mode: candidate.mode, createdAt: candidate.createdAt, distance };
      }
    }
    return best;
  },

  /** The kept hash of a generation's picture (a video's poster), as an unsigned 64-bit integer. */
  async hashOfGeneration(db: DbOrTx, generationId: number): Promise<bigint | null> {
    const [row] = await db
      .select({ hash: sql<string>`${outputHashes.hash}::text` })
      .from(outputHashes)
      .where(eq(outputHashes.generationId, generationId))
      .limit(1);
    return row ? fromSigned(BigInt(row.hash)) : null;
  },

  async block(db: DbOrTx, row: { hash: bigint; reason: string; createdAt: Date }) {
    const [band0, band1, band2, band3] = hashBands(row.hash);
    await db.insert(blockedPictures).values({
      hash: toSigned(row.hash),
      band0,
      band1,
      band2,
      band3,
      reason: row.reason,
      createdAt: row.createdAt,
    });
  },

  /** Whether a blocked picture lies within `maxDistance` bits (the same band search as `nearest`). */
  async isBlocked(db: DbOrTx, hash: bigint, maxDistance: number): Promise<boolean> {
    const [band0, band1, band2, band3] = hashBands(hash);
    const candidates = await db
      .select({ hash: sql<string>`${blockedPictures.hash}::text` })
      .from(blockedPictures)
      .where(
        or(
          eq(blockedPictures.band0, band0),
          eq(blockedPictures.band1, band1),
          eq(blockedPictures.band2, band2),
          eq(blockedPictures.band3, band3),
        ),
      )
      .limit(5000);
    return candidates.some((row) => hammingDistance(hash, fromSigned(BigInt(row.hash))) <= maxDistance);
  },

  /** The same search by a full scan (the distance to every row, the nearest kept): the baseline the bench compares with. */
  async nearestByScan(db: Db, hash: bigint, maxDistance: number) {
    const distance = sql<number>`bit_count(int8send(${outputHashes.hash} # ${toSigned(hash)}))::int`;
    const rows = await db.select({ distance }).from(outputHashes).orderBy(distance).limit(1);
    return rows[0] && rows[0].distance <= maxDistance ? rows[0] : null;
  },
};

/** The one development signing pair, in the database so every node signs under one root. */
export function developmentPairStore(db: Db): DevelopmentPairStore {
  const read = async (): Promise<DevelopmentPair | null> => {
    const [row] = await db
      .select({
        rootPem: provenanceDevelopmentPair.rootPem,
        leafPem: provenanceDevelopmentPair.leafPem,
        keyPem: provenanceDevelopmentPair.keyPem,
      })
      .from(provenanceDevelopmentPair)
      .where(eq(provenanceDevelopmentPair.id, 1));
    return row ?? null;
  };
  return {
    read,
    async keep(pair) {
      await db
        .insert(provenanceDevelopmentPair)
        .values({ id: 1, ...pair })
        .onConflictDoNothing();
      return (await read())!;
    },
  };
}
