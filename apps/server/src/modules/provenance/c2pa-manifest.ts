import { randomUUID } from 'node:crypto';
import { BMFF, JPEG, PNG } from '@trustnxt/c2pa-ts/asset';
import type { Signer } from '@trustnxt/c2pa-ts/cose';
import { SuperBox } from '@trustnxt/c2pa-ts/jumbf';
import {
  ActionAssertion,
  ActionType,
  BMFFHashAssertion,
  DataHashAssertion,
  DigitalSourceType,
  IngredientAssertion,
  ManifestStore,
  RelationshipType,
} from '@trustnxt/c2pa-ts/manifest';
import { shiftChunkOffsets } from './bmff-chunk-offsets.js';

/** What a manifest says about an output: nothing about the person, only how it was made. */
export interface OutputFacts {
  /** `created` for a picture made from a prompt or a face model; `edited` for a changed uploaded photo. */
  action: 'created' | 'edited';
  /** The engine that made it (`local`, `fal`, …), named as the software agent. */
  engine: string;
  /** The mode it was made in (`portrait`, `face_swap`, …). */
  mode: string;
}

/** The formats Mirra signs: what results are downloaded as (a WebP is re-encoded before, see provenance.usecases). */
export const SIGNABLE_TYPES = ['image/jpeg', 'image/png', 'video/mp4'] as const;

/*
 * c2pa-ts reads BMFF only for the HEIF brands; an MP4's boxes are the same ISO BMFF (the BMFF hash
 * assertion covers both), so the MP4 brands are allowed too. Its box insertion moves the media
 * data without moving MP4 chunk offsets, which shiftChunkOffsets then does.
 */
const MP4_BRANDS = ['isom', 'iso2', 'iso4', 'iso5', 'iso6', 'mp41', 'mp42', 'avc1', 'M4V '];
for (const brand of MP4_BRANDS) (BMFF as unknown as { canReadBrands: Set<string> }).canReadBrands.add(brand);

/**
 * The file with an embedded, signed C2PA manifest: one actions assertion (c2pa.created or
 * c2pa.edited, digitalSourceType trainedAlgorithmicMedia, the engine as software agent, the mode as
 * a parameter) and the hard binding to the file's bytes (data hash; BMFF hash for MP4).
 */
export async function embedC2paManifest(
  data: Buffer,
  contentType: (typeof SIGNABLE_TYPES)[number],
  facts: OutputFacts,
  signer: Signer,
  source?: { data: Buffer; contentType: string },
): Promise<Buffer> {
  const bytes = new Uint8Array(data);
  const asset =
    contentType === 'video/mp4'
      ? new BMFF(bytes)
      : contentType === 'image/png'
        ? new PNG(bytes)
        : new JPEG(bytes);
  const store = new ManifestStore();
  // A manifest the engine's file already carries (OpenAI's images have one) is kept: its manifests
  // come first in the store, and ours names its active one as the parent ingredient.
  const prior = source ? priorManifests(source) : [];
  for (const kept of prior) store.manifests.push(kept);
  const manifest = store.createManifest({
    assetFormat: contentType,
    instanceID: `xmp:iid:${randomUUID()}`,
    defaultHashAlgorithm: 'SHA-256',
    signer,
  });
  manifest.claim!.claimGeneratorName = 'Mirra';
  const actions = new ActionAssertion();
  actions.actions = [
    {
      action: facts.action === 'edited' ? ActionType.C2paEdited : ActionType.C2paCreated,
      digitalSourceType: DigitalSourceType.TrainedAlgorithmicMedia,
      softwareAgent: { name: `Mirra ${facts.engine} engine` },
      parameters: { mode: facts.mode, engine: facts.engine },
    },
  ];
  manifest.addAssertion(actions);
  const parent = prior.at(-1);
  if (source && parent?.label) {
    const ingredient = IngredientAssertion.createV2('engine output', source.contentType);
    ingredient.relationship = RelationshipType.ParentOf;
    ingredient.instanceID = `xmp:iid:${randomUUID()}`;
    ingredient.c2pa_manifest = manifest.createHashedReference(`/c2pa/${parent.label}`);
    manifest.addAssertion(ingredient);
  }
  const hash =
    contentType === 'video/mp4'
      ? BMFFHashAssertion.createV3('jumbf manifest', 'SHA-256')
      : DataHashAssertion.create('SHA-256');
  manifest.addAssertion(hash);
  const before = (asset as unknown as { data: Uint8Array }).data.byteLength;
  await asset.ensureManifestSpace(store.measureSize());
  if (contentType === 'video/mp4') {
    const moved = (asset as unknown as { data: Uint8Array }).data;
    // The manifest box goes right after ftyp: everything from ftyp's end moved by the box's size.
    shiftChunkOffsets(
      moved,
      new DataView(bytes.buffer, bytes.byteOffset).getUint32(0),
      moved.byteLength - before,
    );
  }
  await hash.updateWithAsset(asset);
  await manifest.sign(signer);
  await asset.writeManifestJUMBF(store.getBytes());
  return Buffer.from(await asset.getDataRange());
}

/** The manifests a JPEG or PNG already carries (none for other formats, or when unreadable). */
function priorManifests(source: { data: Buffer; contentType: string }) {
  try {
    const bytes = new Uint8Array(source.data);
    const asset = JPEG.canRead(bytes) ? new JPEG(bytes) : PNG.canRead(bytes) ? new PNG(bytes) : null;
    const jumbf = asset?.getManifestJUMBF();
    return jumbf ? ManifestStore.read(SuperBox.fromBuffer(new Uint8Array(jumbf))).manifests : [];
  } catch {
    return [];
  }
}
