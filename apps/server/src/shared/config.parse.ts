import type { StorageConfig } from './storage/create-storage.js';
import { z } from 'zod';

/**
 * A price or free-tier value from the environment, held to the bounds the console edits within:
 * the public config and the console answer with these, so one outside them would break both.
 */
export const withinBounds = (bounds: { min: number; max: number }) =>
  z.coerce.number().int().min(bounds.min).max(bounds.max);

export const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
export const optionalString = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() ? v.trim() : undefined));
export const seconds = z.coerce.number().int().nonnegative();

/**
 * `ENGINE_SIMPLE=fal,local`: the engines tried for a mode, in order, without blanks or repeats.
 * An empty setting names no engine (the mode is unavailable).
 */
export function parseEngineList(value: string): string[] {
  const names = value
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  return [...new Set(names)];
}

/**
 * `PARTNER_LEVELS=10,5,2`: the commission of each partner level, in percent of a paid purchase (at
 * most two decimals), as basis points (10 % → 1000). Level 1 is the buyer's own referer.
 */
export function parsePartnerLevels(value: string): number[] {
  const parts = value.split(',').map((part) => part.trim());
  if (parts.length === 0 || parts.length > 10 || parts.some((part) => !/^\d{1,2}(\.\d{1,2})?$/.test(part))) {
    throw new Error('PARTNER_LEVELS: up to 10 comma-separated percentages, e.g. 10,5,2');
  }
  const basisPoints = parts.map((part) => Math.round(Number(part) * 100));
  if (basisPoints.reduce((sum, bp) => sum + bp, 0) > 10_000) {
    throw new Error('PARTNER_LEVELS: the levels together may not pay more than 100 %');
  }
  return basisPoints;
}

/** `PARTNER_LEVEL_MIN_PAYING=0,2,3`: paying first-line partners each level needs to pay out; missing levels need 0. */
export function parsePartnerQualification(value: string, levels: number): number[] {
  const parts = value.trim() ? value.split(',').map((part) => part.trim()) : [];
  if (parts.some((part) => !/^\d{1,6}$/.test(part))) {
    throw new Error('PARTNER_LEVEL_MIN_PAYING: comma-separated whole numbers, e.g. 0,2,3');
  }
  return Array.from({ length: levels }, (_, i) => Number(parts[i] ?? 0));
}

/**
 * `s3://bucket/prefix?region=eu-west-1&endpoint=https://…&forcePathStyle=true` → an S3 store;
 * unset → local disk. Throws a readable error for anything else.
 */
export function parseStorageUrl(
  value: string | undefined,
  env: {
    mediaDir: string;
    accessKeyId?: string | undefined;
    secretAccessKey?: string | undefined;
    sessionToken?: string | undefined;
    region?: string | undefined;
    cdnUrl?: string | undefined;
  },
): StorageConfig {
  if (!value) return { kind: 'local', dir: env.mediaDir };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error('Invalid configuration:\n  STORAGE_URL: expected s3://bucket[/prefix]?region=…');
  }
  if (url.protocol !== 's3:' || !url.hostname) {
    throw new Error('Invalid configuration:\n  STORAGE_URL: expected s3://bucket[/prefix]?region=…');
  }
  if ((env.accessKeyId === undefined) !== (env.secretAccessKey === undefined)) {
    throw new Error(
      'Invalid configuration:\n  AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY: set both or neither',
    );
  }
  const prefix = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, '');
  const forcePathStyle = url.searchParams.get('forcePathStyle');
  return {
    kind: 's3',
    bucket: url.hostname,
    prefix: prefix ? `${prefix}/` : '',
    region: url.searchParams.get('region') ?? env.region ?? 'us-east-1',
    endpoint: url.searchParams.get('endpoint') ?? undefined,
    forcePathStyle: forcePathStyle === 'true' || forcePathStyle === '1',
    credentials:
      env.accessKeyId && env.secretAccessKey
        ? {
            accessKeyId: env.accessKeyId,
            secretAccessKey: env.secretAccessKey,
            sessionToken: env.sessionToken,
          }
        : undefined,
    cdnUrl: env.cdnUrl,
  };
}

const YOOKASSA_METHOD_TYPES = ['bank_card', 'sberbank', 'sbp'] as const;
export function parseYooKassaMethods(list: string): Array<(typeof YOOKASSA_METHOD_TYPES)[number]> {
  const methods = list
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
  for (const m of methods) {
    if (!(YOOKASSA_METHOD_TYPES as readonly string[]).includes(m)) {
      throw new Error(`YOOKASSA_METHODS: unknown method ${m} (bank_card, sberbank, sbp)`);
    }
  }
  return methods as Array<(typeof YOOKASSA_METHOD_TYPES)[number]>;
}

/** This machine's address for links when PUBLIC_URL is unset: a wildcard host means localhost. */
export function localUrl(host: string, port: number): string {
  const name = ['0.0.0.0', '::', ''].includes(host) ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

export function parseTrustProxy(value: string | undefined): boolean | number | string[] {
  if (!value || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value.split(',').map((v) => v.trim());
}

/** `model=price,…` → price per result in USD by model id; entries that are not a price are skipped. */
export function parseProviderPrices(value: string): Record<string, ProviderPrice> {
  const prices: Record<string, ProviderPrice> = {};
  for (const entry of value.split(',')) {
    const [model, price] = entry.split('=').map((part) => part.trim());
    const perSecond = Boolean(price?.endsWith('/s'));
    const usd = Number(perSecond ? price!.slice(0, -2) : price);
    if (model && price && Number.isFinite(usd) && usd >= 0) prices[model] = { usd, perSecond };
  }
  return prices;
}

/** A provider's price of a model: per result, or (`0.056/s`) per second of video made. */
export interface ProviderPrice {
  usd: number;
  perSecond: boolean;
}

/** What a result cost at the provider (USD), or null when the price table does not list the model. */
export function providerCost(
  prices: Record<string, ProviderPrice>,
  model: string,
  seconds: number | null = null,
): number | null {
  const price = prices[model];
  if (!price) return null;
  if (!price.perSecond) return price.usd;
  return seconds === null ? null : Math.round(price.usd * seconds * 10_000) / 10_000;
}
