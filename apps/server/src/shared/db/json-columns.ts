import type { TNotificationData } from '@mirra/contracts';
import type { EngineNote, FaceAnalysis, FaceProfile } from '@mirra/imaging';

// The shapes kept in JSON columns, declared once so the columns are typed (schema.ts) and the
// modules that read them need no casts. Modules re-export the ones they own.

/** What a finished generation keeps in `generations.result`. */
export interface StoredResult {
  original: { key: string; width: number; height: number; contentType: string };
  variants: Array<{ key: string; width: number; height: number }>;
  /** A video's looping animated WebP for grids (absent for pictures and older videos). */
  preview?: { key: string; width: number; height: number };
  engine: string;
  /** A provider's model that made it (e.g. fal-ai/flux/schnell). */
  model?: string;
  /** Plain strings in results stored before notes had codes. */
  notes: Array<EngineNote | string>;
  /** Drawn by code from shapes (see EngineOutput.procedural): the NSFW classifier is not asked. */
  procedural?: boolean;
}

/** What `posts.image` keeps: the result's files, as in `generations.result`. */
export interface StoredPostImage {
  original: { key: string; width: number; height: number; contentType: string };
  variants: Array<{ key: string; width: number; height: number }>;
  /** Copied from the generation's result: drawn by code, so not put to the NSFW classifier. */
  procedural?: boolean;
  /** A video post: its length (moderation samples frames over it). */
  durationSeconds?: number | null;
}

/**
 * LoRAs a digital model was trained into at providers, by engine, with what the training cost
 * there (USD, from the provider's answer or the price table; null when neither says).
 */
export type StoredProviderLoras = Record<
  string,
  { url: string; triggerWord: string; costUsd?: number | null }
>;

export const CRYPTO_NETWORKS = ['TRC20', 'ERC20', 'BEP20', 'TON', 'BTC'] as const;
export type CryptoNetwork = (typeof CRYPTO_NETWORKS)[number];

/** Where a partner's pay-out goes, with the holder's name. */
export type PayoutRequisites =
  | { method: 'card'; card: string; holder: string }
  | { method: 'sbp'; phone: string; bank: string; holder: string }
  | { method: 'crypto'; network: CryptoNetwork; address: string; holder: string };

export type { FaceAnalysis, FaceProfile, TNotificationData };
