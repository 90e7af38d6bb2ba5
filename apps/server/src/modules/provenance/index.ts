/**
 * The public face of the provenance module: marking outputs as made by AI (XMP and a signed C2PA
 * manifest), keeping their perceptual hashes, the verify page's API, and the block list of pictures
 * removed after a takedown (refused as uploads).
 */
export type { ProvenanceDeps } from './provenance.deps.js';
export { registerProvenanceRoutes } from './provenance.routes.js';
export {
  markOutput,
  outputFacts,
  provenanceSigner,
  recordOutputHash,
  type OutputFacts,
} from './provenance.usecases.js';
export { readC2paManifest } from './c2pa-reader.js';
export { blockPicture, isPictureBlocked, refuseBlockedPicture } from './blocked-pictures.usecases.js';
