/**
 * The public face of the faces module: the only file other modules and the composition root
 * import from it. Anything not exported here is the module's own business.
 */
export { type AnalyzeOptions, createFaceAnalyzer, type FaceAnalyzer } from './face-analyzer.js';
export { averageDescriptor, descriptorSimilarity } from './face-descriptors.models.js';
export { FACE_OVAL, type Point2 } from './face-geometry.models.js';
export { alignedFaceCrop, decodeRgb, encodeRgb } from './face-images.js';
export {
  buildFaceProfile,
  canonicalShape,
  type FaceProfile,
  type FaceReference,
  pickReferenceForYaw,
} from './face-profile.models.js';
export { swapFace } from './face-swap.models.js';
export type { RgbImage } from './face-warp.models.js';
export type { AnalysedFace, FaceAnalysis } from './faces.types.js';
export {
  checkPhoto,
  DEFAULT_PHOTO_CHECK_THRESHOLDS,
  type PhotoCheck,
  type PhotoCheckThresholds,
} from './photo-checks.models.js';
export {
  copyDistance,
  fingerprintDistance,
  MAX_COPY_DISTANCE,
  mirroredFingerprint,
} from './photo-fingerprint.models.js';
export { photoFingerprint } from './photo-fingerprint.js';
