import sharp from 'sharp';
import { bundledFfmpegPath, sampleVideoFrames } from '@mirra/imaging';
import type { TVerifyResult } from '@mirra/contracts';
import type { Config } from '../../shared/config.js';
import type { Db } from '../../shared/db/client.js';
import { embedC2paManifest, type OutputFacts } from './c2pa-manifest.js';
import { readC2paManifest } from './c2pa-reader.js';
import { perceptualHash } from './perceptual-hash.js';
import type { ProvenanceDeps } from './provenance.deps.js';
import { describeManifest, MATCH_MAX_DISTANCE, verdictOf } from './provenance.models.js';
import { developmentPairStore, provenanceRepository } from './provenance.repository.js';
import { loadProvenanceSigner, type ProvenanceSigner } from './provenance-signer.js';
import { withXmp, xmpPacket } from './xmp-source-type.js';

export type { OutputFacts } from './c2pa-manifest.js';

/** One signer per database and certificate, loaded (or made) on first use and kept. */
const signers = new WeakMap<object, Map<string, Promise<ProvenanceSigner>>>();
export function provenanceSigner(deps: { config: Pick<Config, 'provenance'>; db: Db }, now: Date) {
  const { config, db } = deps;
  const key = `${config.provenance.certFile ?? ''}\0${config.provenance.keyFile ?? ''}`;
  let ofDb = signers.get(db);
  if (!ofDb) signers.set(db, (ofDb = new Map()));
  let signer = ofDb.get(key);
  if (!signer) {
    signer = loadProvenanceSigner({ ...config.provenance, development: developmentPairStore(db) }, now);
    ofDb.set(key, signer);
    signer.catch(() => ofDb.delete(key));
  }
  return signer;
}

/**
 * A result's original as it is stored and downloaded: marked as made by AI in XMP (IPTC
 * DigitalSourceType) and with a signed C2PA manifest (the action, the source type, the engine and
 * the mode; nothing about the person). Signed once, when stored, not at each download. A WebP
 * becomes a JPEG (or a PNG when transparent), formats C2PA writers cover; any other type comes
 * back unchanged.
 */
export async function markOutput(
  deps: Pick<ProvenanceDeps, 'config' | 'db' | 'now'>,
  original: { data: Buffer; contentType: string },
  facts: OutputFacts,
  /** The engine's own file, when `original` is its re-encoding: a manifest it carries becomes the ingredient. */
  source?: { data: Buffer; contentType: string },
): Promise<{ data: Buffer; contentType: string }> {
  let { data, contentType } = original;
  if (contentType === 'image/webp') {
    const { hasAlpha } = await sharp(data).metadata();
    contentType = hasAlpha ? 'image/png' : 'image/jpeg';
    const image = sharp(data, { limitInputPixels: false });
    data = await (
      hasAlpha ? image.png() : image.jpeg({ quality: 92, chromaSubsampling: '4:4:4' })
    ).toBuffer();
  }
  if (contentType !== 'image/jpeg' && contentType !== 'image/png' && contentType !== 'video/mp4') {
    return { data, contentType };
  }
  const { signer } = await provenanceSigner(deps, deps.now());
  const marked = withXmp(data, contentType, xmpPacket(`Mirra (${facts.engine}, ${facts.mode})`));
  return {
    data: await embedC2paManifest(marked, contentType, facts, signer, source ?? original),
    contentType,
  };
}

/**
 * Keeps the perceptual hash of a generation's picture (a video's poster) so the verify page finds
 * copies whose metadata was taken off. Called where results are stored, in the generation's own
 * transaction or after it.
 */
export async function recordOutputHash(
  deps: Pick<ProvenanceDeps, 'db' | 'logger' | 'now'>,
  output: { generationId: number; still: Buffer; mode: string },
): Promise<void> {
  // Never fails the generation it follows: a finished generation is not finished twice for this.
  try {
    const hash = await perceptualHash(output.still);
    await provenanceRepository.record(deps.db, { ...output, hash, createdAt: deps.now() });
  } catch (error) {
    deps.logger.warn(
      { err: error, generationId: output.generationId },
      'the perceptual hash of an output was not kept',
    );
  }
}

/** What a generation's manifest says: edited when it changed the person's uploaded photo, else created. */
export function outputFacts(generation: {
  engine: string;
  mode: string;
  inputUploads?: readonly string[] | null;
}): OutputFacts {
  return {
    action: generation.inputUploads && generation.inputUploads.length > 0 ? 'edited' : 'created',
    engine: generation.engine,
    mode: generation.mode,
  };
}

const READABLE = new Set(['image/jpeg', 'image/png', 'image/webp', 'video/mp4']);

/**
 * Was this file made by Mirra? Its C2PA manifest when it carries one, and its look: the pHash of
 * the picture, or of a video's first frame (a video's kept hash is its poster's). Nothing of the
 * file is kept.
 */
export async function verifyFile(
  deps: ProvenanceDeps,
  file: { data: Buffer; contentType: string },
): Promise<TVerifyResult> {
  const { signer, developmentRootPem } = await provenanceSigner(deps, deps.now());
  const anchors =
    developmentRootPem ??
    [signer.certificate, ...signer.chainCertificates].map((c) => c.toString('pem')).join('\n');
  const read = READABLE.has(file.contentType)
    ? await readC2paManifest(file.data, file.contentType, anchors)
    : null;
  const manifest = read ? describeManifest(read) : null;
  let match: TVerifyResult['match'] = null;
  const still = file.contentType === 'video/mp4' ? await firstFrame(file.data) : file.data;
  if (still) {
    const found = await provenanceRepository.nearest(
      deps.db,
      await perceptualHash(still),
      MATCH_MAX_DISTANCE,
    );
    if (found)
      match = { createdAt: found.createdAt.toISOString(), mode: found.mode, distance: found.distance };
  }
  return { verdict: verdictOf(manifest, match), manifest, match };
}

/** Longest the first frame of a dropped video may take to decode. */
const FRAME_TIMEOUT_MS = 20_000;

/** A video's first frame (what a video's kept hash is of: its poster), or null when it cannot be read. */
async function firstFrame(mp4: Buffer): Promise<Buffer | null> {
  try {
    const [frame] = await sampleVideoFrames({
      path: bundledFfmpegPath(),
      mp4,
      seconds: 0,
      count: 1,
      timeoutMs: FRAME_TIMEOUT_MS,
    });
    return frame ?? null;
  } catch {
    return null;
  }
}
