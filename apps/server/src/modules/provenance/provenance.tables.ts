import { bigint, index, integer, pgTable, smallint, text } from 'drizzle-orm/pg-core';
import { createdAt } from '../../shared/db/columns.js';
import { generations } from '../generations/generations.tables.js';

/**
 * The perceptual hash of every output, kept at creation so a copy without its metadata is still
 * recognised. Looked up by multi-index hashing: the 64 bits split into four 16-bit bands, each with
 * its own btree; a copy within 3 bits shares at least one band exactly, and the candidates a band
 * finds are then checked bit by bit. Gone with the generation.
 */
export const outputHashes = pgTable(
  'output_hashes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    generationId: bigint('generation_id', { mode: 'number' })
      .notNull()
      .references(() => generations.id, { onDelete: 'cascade' }),
    /** The 64-bit pHash, as a signed bigint. */
    hash: bigint('hash', { mode: 'bigint' }).notNull(),
    band0: integer('band0').notNull(),
    band1: integer('band1').notNull(),
    band2: integer('band2').notNull(),
    band3: integer('band3').notNull(),
    mode: text('mode').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('output_hashes_band0_idx').on(t.band0),
    index('output_hashes_band1_idx').on(t.band1),
    index('output_hashes_band2_idx').on(t.band2),
    index('output_hashes_band3_idx').on(t.band3),
    index('output_hashes_generation_idx').on(t.generationId),
  ],
);

/**
 * Pictures removed after a takedown request, by their perceptual hash (bands as in output_hashes):
 * an upload whose picture is within BLOCK_MAX_DISTANCE bits of one is refused, whichever way it
 * comes in. Only the hash is kept, never the picture; it outlives the post and generation it came from.
 */
export const blockedPictures = pgTable(
  'blocked_pictures',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    hash: bigint('hash', { mode: 'bigint' }).notNull(),
    band0: integer('band0').notNull(),
    band1: integer('band1').notNull(),
    band2: integer('band2').notNull(),
    band3: integer('band3').notNull(),
    /** Why it is blocked, for staff (e.g. `takedown:intimate`). */
    reason: text('reason').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('blocked_pictures_band0_idx').on(t.band0),
    index('blocked_pictures_band1_idx').on(t.band1),
    index('blocked_pictures_band2_idx').on(t.band2),
    index('blocked_pictures_band3_idx').on(t.band3),
  ],
);

/**
 * The development signing pair (a CA and an ES256 certificate under it) made at first start when
 * no operator certificate is configured: one row, shared by every node, so every output chains to
 * one root and no node writes it into its data folder. Production signs with C2PA_CERT_FILE.
 */
export const provenanceDevelopmentPair = pgTable('provenance_development_pair', {
  /** Always 1: there is one pair. */
  id: smallint('id').primaryKey(),
  rootPem: text('root_pem').notNull(),
  leafPem: text('leaf_pem').notNull(),
  keyPem: text('key_pem').notNull(),
  createdAt: createdAt(),
});
