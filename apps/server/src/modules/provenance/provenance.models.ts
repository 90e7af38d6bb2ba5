import type { TVerifyResult } from '@mirra/contracts';
import type { ReadManifest } from './c2pa-reader.js';

/**
 * Most differing bits of 64 for "the same picture": re-encoding, resizing and metadata removal
 * change a handful, an unrelated picture about 32. Copies within 3 bits are found for certain
 * (they share a 16-bit band); up to this bound when one band survives.
 */
export const MATCH_MAX_DISTANCE = 8;

/** The failures that mean the bytes changed after signing, rather than a bad signature. */
const CHANGED_CODES = [
  'assertion.dataHash.mismatch',
  'assertion.bmffHash.mismatch',
  'assertion.boxesHash.mismatch',
];

/** What a manifest says, as the verify page shows it. */
export function describeManifest(read: ReadManifest): NonNullable<TVerifyResult['manifest']> {
  const changed = read.failures.some((code) => CHANGED_CODES.includes(code));
  const signatureOk = !read.failures.some(
    (code) => code.startsWith('claimSignature') || code.startsWith('signingCredential.invalid'),
  );
  // Trusted: the signing certificate chains to Mirra's own (read with only Mirra's certificates as anchors).
  const fromMirra = signatureOk && read.validationState === 'Trusted';
  return {
    valid: signatureOk && !changed,
    signedByMirra: fromMirra,
    generator: read.generator,
    actions: read.actions.map((action) => action.action),
    digitalSourceType: read.actions.find((action) => action.digitalSourceType)?.digitalSourceType ?? null,
    changedSinceSigned: changed,
    signedAt: read.signature?.time ?? null,
  };
}

/** The verdict: Mirra's by a valid manifest or by its look; changed when the bytes or the look differ. */
export function verdictOf(
  manifest: TVerifyResult['manifest'],
  match: TVerifyResult['match'],
): TVerifyResult['verdict'] {
  if (manifest?.signedByMirra) return manifest.changedSinceSigned ? 'mirra_changed' : 'mirra';
  // Found by its look without Mirra's manifest: at least the metadata was taken off.
  if (match) return 'mirra_changed';
  return 'unknown';
}
