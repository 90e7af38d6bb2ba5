import { z } from 'zod';

/** What the verify page learns from a file's C2PA manifest, when it carries one. */
export const ZVerifyManifest = z.object({
  /** The manifest's signature checks out against its certificate and the file's bytes match it. */
  valid: z.boolean(),
  /** Signed with this Mirra's certificate. */
  signedByMirra: z.boolean(),
  /** Who made the manifest (its claim generator). */
  generator: z.string().nullable(),
  /** `c2pa.created`, `c2pa.edited`, … of the active manifest. */
  actions: z.array(z.string()),
  digitalSourceType: z.string().nullable(),
  /** The file's bytes no longer match what was signed: changed after it was signed. */
  changedSinceSigned: z.boolean(),
  /** When it was signed (the signature's time), if the manifest says. */
  signedAt: z.string().nullable(),
});

/** A picture of Mirra's found by its look (a perceptual hash), with the metadata gone or not. */
export const ZVerifyMatch = z.object({
  createdAt: z.string(),
  mode: z.string(),
  /** Differing bits of 64: 0 is the same picture, a few are a re-encoded, resized copy. */
  distance: z.number().int().min(0).max(64),
});

/** The verify page's answer. */
export const ZVerifyResult = z.object({
  /** `mirra`: made by Mirra and unchanged; `mirra_changed`: made by Mirra and changed since; `unknown`: no sign of Mirra. */
  verdict: z.enum(['mirra', 'mirra_changed', 'unknown']),
  manifest: ZVerifyManifest.nullable(),
  match: ZVerifyMatch.nullable(),
});
export type TVerifyResult = z.infer<typeof ZVerifyResult>;
