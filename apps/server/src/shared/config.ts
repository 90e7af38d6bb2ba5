import path from 'node:path';
import {
  GENERATION_MODES,
  MODE_DECLARATIONS,
  MODE_PRICE_KEYS,
  PRICING_BOUNDS,
  type TGenerationMode,
  type TModePriceKey,
  type TModePrices,
} from '@mirra/contracts';
import { z } from 'zod';
import type { StorageConfig } from './storage/create-storage.js';
import { defaultThreadCount } from './thread-pool.js';

/**
 * A price or free-tier value from the environment, held to the bounds the console edits within:
 * the public config and the console answer with these, so one outside them would break both.
 */
const withinBounds = (bounds: { min: number; max: number }) =>
  z.coerce.number().int().min(bounds.min).max(bounds.max);

/**
 * Generation prices: PRICE_<KEY> per mode's declared price key (PRICE_VIDEO_PER_SECOND is per
 * second of output), defaulting to the mode's declared price. The defaults are multiples of 5 so
 * that the prompt author's 20% of each is a whole credit; other prices still pay exactly 20% over
 * time (fractions are carried).
 */
const modePriceVariable = (key: TModePriceKey) =>
  `PRICE_${key.toUpperCase()}` as `PRICE_${Uppercase<TModePriceKey>}`;
const modePriceSchema = (price: number) => withinBounds(PRICING_BOUNDS.modePrice).default(price);
const MODE_PRICE_ENV = Object.fromEntries(
  MODE_DECLARATIONS.map((mode) => [modePriceVariable(mode.price.key), modePriceSchema(mode.price.default)]),
) as Record<`PRICE_${Uppercase<TModePriceKey>}`, ReturnType<typeof modePriceSchema>>;

/**
 * Which engines serve each mode, in order (ENGINE_<MODE>): `local` (offline, built in) or a
 * provider's name; `fal,local` tries fal and moves to local when fal is down.
 */
const modeEngineVariable = (mode: TGenerationMode) =>
  `ENGINE_${mode.toUpperCase()}` as `ENGINE_${Uppercase<TGenerationMode>}`;
const MODE_ENGINE_ENV = Object.fromEntries(
  GENERATION_MODES.map((mode) => [modeEngineVariable(mode), z.string().default('local')]),
) as Record<`ENGINE_${Uppercase<TGenerationMode>}`, z.ZodDefault<z.ZodString>>;

function modePricesFrom(e: Record<`PRICE_${Uppercase<TModePriceKey>}`, number>): TModePrices {
  return Object.fromEntries(MODE_PRICE_KEYS.map((key) => [key, e[modePriceVariable(key)]])) as TModePrices;
}

function modeEnginesFrom(
  e: Record<`ENGINE_${Uppercase<TGenerationMode>}`, string>,
): Record<TGenerationMode, string[]> {
  return Object.fromEntries(
    GENERATION_MODES.map((mode) => [mode, parseEngineList(e[modeEngineVariable(mode)])]),
  ) as Record<TGenerationMode, string[]>;
}

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() ? v.trim() : undefined));
const seconds = z.coerce.number().int().nonnegative();

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

/**
 * Every setting of the server, read once from the environment. Defaults make `npm start` work on a
 * fresh machine with nothing configured; each one is documented in the README's table.
 */
const ZEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  /** Where people reach the app (emailed links, share links, the bot's button); unset: this machine's HOST and PORT. */
  PUBLIC_URL: optionalString.pipe(z.url().optional()),
  DATA_DIR: z.string().default('./data'),
  /**
   * Where media live: unset, DATA_DIR/media on this machine; `s3://bucket[/prefix]?region=…&endpoint=…&forcePathStyle=true`
   * for any S3-compatible store shared by every node (credentials from AWS_ACCESS_KEY_ID etc.).
   */
  STORAGE_URL: optionalString,
  AWS_ACCESS_KEY_ID: optionalString,
  AWS_SECRET_ACCESS_KEY: optionalString,
  AWS_SESSION_TOKEN: optionalString,
  AWS_REGION: optionalString,
  /** A CDN in front of the bucket (it forwards query strings, so URLs stay presigned): its base URL. */
  MEDIA_CDN_URL: optionalString.pipe(z.url().optional()),
  /** Any PostgreSQL; when unset an embedded one is started in DATA_DIR/pg. */
  DATABASE_URL: optionalString,
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).default(10),
  /**
   * A direct (session) connection for what needs one session throughout: LISTEN, the migration
   * lock and the job worker. Defaults to DATABASE_URL; set it when DATABASE_URL is a pooler.
   */
  DATABASE_LISTEN_URL: optionalString,
  /**
   * `transaction` when DATABASE_URL is a pooler in transaction mode (PgBouncer): queries use no
   * named prepared statements, and the job worker and migrations use DATABASE_LISTEN_URL.
   */
  DATABASE_POOLER: z.enum(['none', 'transaction']).default('none'),
  /** smtp:// or smtps:// URL; when unset emails are written to DATA_DIR/outbox as .eml files. */
  SMTP_URL: optionalString,
  EMAIL_FROM: z.string().default('Mirra <no-reply@mirra.local>'),
  /** Secret for signing tokens; when unset one is generated once and kept in DATA_DIR/secrets.json. */
  JWT_SECRET: optionalString,
  ACCESS_TOKEN_SECONDS: seconds.default(300),
  REFRESH_TOKEN_SECONDS: seconds.default(30 * 24 * 3600),
  ACTIVATION_TOKEN_SECONDS: seconds.default(3 * 24 * 3600),
  PASSWORD_RESET_TOKEN_SECONDS: seconds.default(24 * 3600),
  TELEGRAM_BOT_TOKEN: optionalString,
  TELEGRAM_BOT_USERNAME: optionalString,
  TELEGRAM_WEBHOOK_SECRET: optionalString,
  TELEGRAM_API_BASE: z.url().default('https://api.telegram.org'),
  /** How old Mini App init data may be before it is refused (seconds). */
  TELEGRAM_INIT_DATA_MAX_AGE: seconds.default(3600),
  TELEGRAM_AUTH_KEY_SECONDS: seconds.default(300),
  /** Short name of the Mini App in BotFather, for t.me/<bot>/<app> links; empty uses the main app. */
  TELEGRAM_MINI_APP_NAME: optionalString,
  /** Telegram username people write to for help (a person, not the bot); shown in the Support sheet. */
  SUPPORT_TELEGRAM: optionalString.pipe(
    z
      .string()
      .regex(/^@?[A-Za-z0-9_]{5,32}$/, 'a Telegram username (5–32 letters, digits or _)')
      .optional(),
  ),
  /** Email address people write to for help; shown in the Support sheet. */
  SUPPORT_EMAIL: optionalString.pipe(z.email().optional()),
  GOOGLE_CLIENT_ID: optionalString,
  /** Where Google's PEM signing certificates are fetched from (tests point it at a local server). */
  GOOGLE_CERTS_URL: z.url().default('https://www.googleapis.com/oauth2/v1/certs'),
  /** A request header a trusted proxy sets with the caller's country (e.g. CF-IPCountry). */
  GEO_COUNTRY_HEADER: optionalString,
  /**
   * Strict-Transport-Security: `auto` sends it on requests that came over https (directly or, with
   * TRUST_PROXY, per X-Forwarded-Proto), `on` always, `off` never.
   */
  HSTS: z.enum(['auto', 'on', 'off']).default('auto'),
  /** Trust X-Forwarded-* from a proxy in front (true, a hop count, or a list of addresses). */
  TRUST_PROXY: optionalString,
  /** Requests per window for the sign-in, registration, reset and resend limits. */
  RATE_LIMIT_LOGIN_PER_IP: z.coerce.number().int().min(1).default(20),
  /** Sign-in attempts on one email from one address: others elsewhere cannot lock its owner out. */
  RATE_LIMIT_LOGIN_PER_EMAIL: z.coerce.number().int().min(1).default(10),
  /**
   * Failed sign-ins on one account from all addresses together (guessing spread over many
   * addresses); over it, only addresses that signed in to the account before may still try.
   */
  RATE_LIMIT_LOGIN_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(100),
  /** Checks of a signed-in person's current password (password change, account deletion). */
  RATE_LIMIT_PASSWORD_CHECK_PER_USER: z.coerce.number().int().min(1).default(10),
  RATE_LIMIT_REGISTER_PER_IP: z.coerce.number().int().min(1).default(10),
  RATE_LIMIT_EMAIL_PER_IP: z.coerce.number().int().min(1).default(10),
  RATE_LIMIT_EMAIL_PER_ADDRESS: z.coerce.number().int().min(1).default(3),
  RATE_LIMIT_WINDOW_SECONDS: seconds.default(900),
  /** Largest accepted JSON body, bytes. */
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  /**
   * Credits each new account starts with: enough to train a digital model (PRICE_MODEL_TRAINING)
   * and make ten pictures with it, so a fresh `npm start` can be tried end to end before payments.
   */
  WELCOME_CREDITS: z.coerce.number().int().min(0).default(150),
  ...MODE_PRICE_ENV,
  /** Free tier: this many generations a day with no pause, then FREE_DELAY_SECONDS between. */
  FREE_DAILY_PHOTOS: withinBounds(PRICING_BOUNDS.dailyPhotos).default(5),
  FREE_DELAY_SECONDS: withinBounds(PRICING_BOUNDS.delaySeconds).default(30),
  /** The payment catalogue as JSON (packs, the unlimited package, prices per region); unset: the built-in one. */
  PAYMENTS_CATALOGUE: optionalString,
  /**
   * The `test` payment provider (Mirra's own checkout page, no money moves: anyone with an order's
   * link could grant its purchase). Unset: on except in production.
   */
  PAYMENTS_TEST_PROVIDER: bool.optional(),
  /**
   * YooKassa (bank card, SberPay, SBP; Russia): the shop id and secret key of the shop. Both set:
   * offered in the RU region. YOOKASSA_API_BASE points it at a local fake.
   */
  YOOKASSA_SHOP_ID: optionalString,
  YOOKASSA_SECRET_KEY: optionalString,
  YOOKASSA_API_BASE: z.url().default('https://api.yookassa.ru/v3'),
  /** Which YooKassa methods are offered, comma-separated: bank_card, sberbank (SberPay), sbp. */
  YOOKASSA_METHODS: z.string().default('bank_card,sberbank,sbp'),
  /**
   * Networks YooKassa's notifications come from (comma-separated CIDRs or addresses); unset: the
   * list YooKassa publishes. A notification from elsewhere is refused before anything is fetched.
   */
  YOOKASSA_WEBHOOK_NETWORKS: optionalString,
  /** Stripe (outside Russia): the secret API key and the webhook endpoint's signing secret. */
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  /** Where the Stripe SDK sends requests (a local fake); unset: api.stripe.com. */
  STRIPE_API_BASE: optionalString.pipe(z.url().optional()),
  /** Cryptomus (cryptocurrency): the merchant uuid and the payment API key. */
  CRYPTOMUS_MERCHANT_ID: optionalString,
  CRYPTOMUS_API_KEY: optionalString,
  CRYPTOMUS_API_BASE: z.url().default('https://api.cryptomus.com'),
  /** Telegram Stars inside the Mini App (needs TELEGRAM_BOT_TOKEN). Unset: on when the bot is. */
  PAYMENTS_STARS: bool.optional(),
  /** Orders still pending this long are re-checked with their provider by the reconciler. */
  PAYMENTS_RECONCILE_AFTER_SECONDS: seconds.default(600),
  /**
   * The premium plan as JSON: `{"id", "period_days", "trial_days", "trial_credits", "credits",
   * "prices": {"ru": kopecks, "intl": cents, "xtr": Stars}}`; unset: the built-in monthly plan.
   */
  PREMIUM_PLAN: optionalString,
  /** Renewals are charged this many hours before access would end. */
  PREMIUM_RENEW_AHEAD_HOURS: z.coerce.number().int().min(0).default(24),
  /** Failed renewals are retried this often, this many times in all, then the subscription expires. */
  PREMIUM_RETRY_HOURS: z.coerce.number().int().min(1).default(24),
  PREMIUM_RENEW_ATTEMPTS: z.coerce.number().int().min(1).default(3),
  /** Versions of the offer and the privacy policy people agree to when paying (stored with each order). */
  LEGAL_OFFER_VERSION: z.string().default('2026-01'),
  LEGAL_PRIVACY_VERSION: z.string().default('2026-01'),
  ...MODE_ENGINE_ENV,
  /** fal.ai: the engine `fal` exists only with a key. FAL_BASE_URL points it at a local fake. */
  FAL_KEY: z.string().optional(),
  FAL_BASE_URL: z.string().url().optional(),
  FAL_JWKS_URL: z.string().url().default('https://rest.alpha.fal.ai/.well-known/jwks.json'),
  /** fal's id of our account: webhooks signed for another account are refused. */
  FAL_USER_ID: z.string().optional(),
  FAL_MODEL_SIMPLE: z.string().default('fal-ai/flux/schnell'),
  FAL_MODEL_EDITING: z.string().default('fal-ai/flux-pro/kontext'),
  FAL_MODEL_STYLING: z.string().default('fal-ai/flux-pro/kontext'),
  FAL_MODEL_FACE_SWAP: z.string().default('fal-ai/face-swap'),
  FAL_MODEL_FACE_PHOTO: z.string().default('fal-ai/flux-lora'),
  FAL_MODEL_VIDEO: z.string().default('fal-ai/kling-video/v2.1/standard/image-to-video'),
  FAL_MODEL_TEXT_TO_VIDEO: z.string().default('fal-ai/kling-video/v2.1/standard/text-to-video'),
  FAL_MODEL_TRAINING: z.string().default('fal-ai/flux-lora-fast-training'),
  /** Replicate: the engine `replicate` exists only with a token. REPLICATE_BASE_URL points it at a fake. */
  REPLICATE_API_TOKEN: optionalString,
  REPLICATE_BASE_URL: z.string().url().default('https://api.replicate.com/v1'),
  /** The account's webhook signing secret (`whsec_…`); unset: read once from Replicate's API. */
  REPLICATE_WEBHOOK_SECRET: optionalString,
  REPLICATE_MODEL_SIMPLE: z.string().default('black-forest-labs/flux-schnell'),
  REPLICATE_MODEL_EDITING: z.string().default('black-forest-labs/flux-kontext-pro'),
  REPLICATE_MODEL_STYLING: z.string().default('black-forest-labs/flux-kontext-pro'),
  REPLICATE_MODEL_FACE_SWAP: z
    .string()
    .default('cdingram/face-swap:d1d6ea8c8be89d664a07a457526f7128109dee7030fdac424788d762c71ed111'),
  REPLICATE_MODEL_VIDEO: z.string().default('kwaivgi/kling-v2.1'),
  /** The FLUX LoRA trainer (`owner/name:version`, or `owner/name` for its latest version). */
  REPLICATE_MODEL_TRAINING: z.string().default('ostris/flux-dev-lora-trainer'),
  /**
   * The Replicate account (user or organisation) that owns the trained digital models
   * (`{owner}/mirra-<model uuid>`, private). Without it Replicate does not train.
   */
  REPLICATE_TRAINING_OWNER: optionalString,
  /** OpenAI's image model for the `openai` engine (which exists only with OPENAI_API_KEY). */
  OPENAI_IMAGES_MODEL: z.string().default('gpt-image-1'),
  OPENAI_IMAGES_QUALITY: z.enum(['low', 'medium', 'high', 'auto']).default('medium'),
  /** Self-hosted ComfyUI servers for the `comfyui` engine, comma-separated (used round-robin). */
  COMFYUI_URLS: z.string().default(''),
  /** Folder of the ComfyUI workflows (`<mode>.json`); unset: the ones shipped in apps/server/comfyui-workflows. */
  COMFYUI_WORKFLOWS_DIR: optionalString,
  /** A folder the ComfyUI servers also load LoRAs from (shared volume): digital models' LoRAs are put there for face photos. */
  COMFYUI_LORAS_DIR: optionalString,
  /** Digital-model training, in order: `fal,local` trains a LoRA at fal and keeps the local profile. */
  ENGINE_TRAINING: z.string().default('local'),
  /** What providers charge per result, USD, `model=price,…` (recorded per generation). */
  PROVIDER_PRICES: z
    .string()
    .default(
      [
        'fal-ai/flux/schnell=0.003',
        'fal-ai/flux/dev=0.025',
        'fal-ai/flux-pro/kontext=0.04',
        'fal-ai/flux-pro/kontext/max=0.08',
        'fal-ai/flux-lora=0.035',
        'fal-ai/face-swap=0.05',
        'fal-ai/kling-video/v2.1/standard/image-to-video=0.056/s',
        'fal-ai/kling-video/v2.1/standard/text-to-video=0.056/s',
        'fal-ai/flux-lora-fast-training=2',
        'black-forest-labs/flux-schnell=0.003',
        'black-forest-labs/flux-kontext-pro=0.04',
        'black-forest-labs/flux-dev-lora=0.032',
        'cdingram/face-swap=0.003',
        'kwaivgi/kling-v2.1=0.05/s',
        'ostris/flux-dev-lora-trainer=2',
        'gpt-image-1=0.042',
      ].join(','),
    ),
  /** A generation not finished this long after its last change is failed and refunded. */
  GENERATION_TIMEOUT_SECONDS: seconds.default(600),
  /** Attempts of a generation job before it fails for good (transient engine errors are retried). */
  GENERATION_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(3),
  /** Credits charged for training a digital model (refunded if training fails). */
  PRICE_MODEL_TRAINING: z.coerce.number().int().min(0).default(100),
  /**
   * The first digital model of an account trains free (a first-model offer), so the welcome
   * credits stay for the pictures made with it. `false` charges PRICE_MODEL_TRAINING from the first.
   */
  FIRST_MODEL_FREE: bool.default(true),
  /** Good photos a digital model needs before it can be trained (15). */
  MODEL_MIN_PHOTOS: z.coerce.number().int().min(1).default(15),
  /** Most photos one model may hold (good or not). */
  MODEL_MAX_PHOTOS: z.coerce.number().int().min(1).default(100),
  /** Training not finished this long after its last change is failed and refunded (spec: up to 30 minutes). */
  MODEL_TRAINING_TIMEOUT_SECONDS: seconds.default(1800),
  /** Largest accepted upload, megabytes ('File too big' past it). */
  UPLOAD_MAX_MB: z.coerce.number().positive().max(200).default(15),
  /** Largest image decoded, width × height: refuses decompression bombs before decoding. */
  UPLOAD_MAX_PIXELS: z.coerce.number().int().min(1).default(50_000_000),
  /** Uploads are scaled down to at most this many pixels on the long side. */
  UPLOAD_MAX_SIDE: z.coerce.number().int().min(64).default(4096),
  RATE_LIMIT_UPLOADS_PER_USER: z.coerce.number().int().min(1).default(60),
  RATE_LIMIT_PROMPT_HELPER_PER_USER: z.coerce.number().int().min(1).default(30),
  /** Bot sign-in keys (POST /api/tg/create_auth_key/, open to anyone) per address and window. */
  RATE_LIMIT_TELEGRAM_AUTH_KEY_PER_IP: z.coerce.number().int().min(1).default(30),
  /** Saved query strings (POST /api/qs/) per person and window. */
  RATE_LIMIT_QS_PER_USER: z.coerce.number().int().min(1).default(60),
  /** Check results with the bundled NSFW classifier before anyone sees them. */
  MODERATION_IMAGES: bool.default(true),
  /** A result is refused when Porn + Hentai scores exceed this… */
  MODERATION_EXPLICIT_THRESHOLD: z.coerce.number().min(0).max(1).default(0.7),
  /** …or its Sexy score exceeds this. */
  MODERATION_SUGGESTIVE_THRESHOLD: z.coerce.number().min(0).max(1).default(0.85),
  /** Enables OpenAI's moderation of prompts on top of the built-in word list. */
  OPENAI_API_KEY: optionalString,
  /** OpenAI's API origin (the API is under /v1); a compatible proxy, or the test fake. */
  OPENAI_BASE_URL: z.url().default('https://api.openai.com'),
  /** An OpenAI-compatible chat API for the prompt helper (OpenAI, OpenRouter, Ollama, llama.cpp). */
  PROMPT_HELPER_BASE_URL: optionalString.pipe(z.url().optional()),
  PROMPT_HELPER_API_KEY: optionalString,
  PROMPT_HELPER_MODEL: z.string().default('gpt-4o-mini'),
  PROMPT_HELPER_TIMEOUT_SECONDS: z.coerce.number().positive().default(15),
  /** A published post is hidden, pending review, once this many people reported it (0: never). */
  POST_REPORT_HIDE_THRESHOLD: z.coerce.number().int().min(0).default(3),
  /** How long a process may reuse a resolved session (kept exact by LISTEN/NOTIFY); 0 disables. */
  SESSION_CACHE_SECONDS: seconds.default(60),
  /**
   * Where `npm start` runs the job worker: `true` in a process of its own beside the API (pixel work
   * never holds up a request), `inline` inside the API process, `false` nowhere (workers run apart
   * with `npm run worker`).
   */
  RUN_WORKER: z
    .enum(['true', 'false', '1', '0', 'yes', 'no', 'inline'])
    .default('true')
    .transform((v): 'process' | 'inline' | 'none' =>
      v === 'inline' ? 'inline' : v === 'true' || v === '1' || v === 'yes' ? 'process' : 'none',
    ),
  /** API processes `npm start` runs (Node cluster, sharing the port); `auto`: one per core. */
  WEB_CONCURRENCY: z.union([z.literal('auto'), z.coerce.number().int().min(1).max(64)]).optional(),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).default(4),
  /**
   * Worker threads for pixel work and model inference (local renders, face analysis, the NSFW
   * classifier) in each process that does it; `auto`: every core but one, at most four; 0: on the
   * process's own event loop (the way before the pool, for comparison).
   */
  IMAGING_THREADS: z
    .union([z.literal('auto'), z.coerce.number().int().min(0).max(64)])
    .default('auto')
    .transform((v) => (v === 'auto' ? defaultThreadCount() : v)),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Bearer token /metrics asks for; unset, /metrics answers only to this machine (loopback). */
  METRICS_TOKEN: optionalString,
  /** A job worker process (no API) serves its own /metrics on this port; unset, none. */
  METRICS_WORKER_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** Server errors go to this Sentry-compatible DSN (Sentry, GlitchTip); unset, nowhere. */
  SENTRY_DSN: optionalString.pipe(z.url().optional()),
  /** The web app's errors go to this (public) Sentry-compatible DSN; unset, nowhere. */
  SENTRY_DSN_WEB: optionalString.pipe(z.url().optional()),
  /** The environment error reports are filed under; NODE_ENV when unset. */
  SENTRY_ENVIRONMENT: optionalString,
  /** The release error reports are tagged with; `mirra@<version>` when unset. */
  SENTRY_RELEASE: optionalString,
  /** Where the built web app lives; served at `/`. */
  WEB_DIST_DIR: optionalString,
  /** Development only: GET /api/dev/telegram-init-data/ signs Mini App init data (ignored in production). */
  DEV_TELEGRAM_MOCK: bool.default(false),
  /**
   * Development and browser tests only (ignored in production): a file holding a number of seconds
   * the server's clock runs ahead of real time, read by every process, so a test can let a hold pass.
   */
  DEV_CLOCK_FILE: optionalString,
  /** Partner commission per level, in percent of each paid purchase (level 1 first). */
  PARTNER_LEVELS: z.string().default('10,5,2'),
  /** Paying first-line partners a partner needs before each level pays them (0: always). */
  PARTNER_LEVEL_MIN_PAYING: z.string().default('0,2,3'),
  /** Days a commission stays frozen (the refund window) before it can be spent or paid out. */
  PARTNER_HOLD_DAYS: z.coerce.number().int().min(0).max(365).default(14),
  /**
   * Payments through the `test` provider move no money, so they pay no commission. On only where
   * the partner programme is tried with them and nothing is ever really paid out (a test server).
   */
  PARTNER_TEST_PAYMENTS_EARN: bool.default(false),
  /** The smallest pay-out from the wallet, in roubles (643) and in US dollars (840). */
  PAYOUT_MIN_RUB: z.coerce.number().int().min(1).default(500),
  PAYOUT_MIN_USD: z.coerce.number().int().min(1).default(10),
  /** Credits one rouble / one US dollar of the wallet buys when moved to one's own credits. */
  WALLET_CREDITS_PER_RUB: z.coerce.number().positive().default(1),
  WALLET_CREDITS_PER_USD: z.coerce.number().positive().default(90),
});

export type Config = ReturnType<typeof parseConfig>;

function partnerConfig(levels: string, minPaying: string, holdDays: number) {
  const basisPoints = parsePartnerLevels(levels);
  const needs = parsePartnerQualification(minPaying, basisPoints.length);
  return {
    levels: basisPoints.map((bp, i) => ({ level: i + 1, basisPoints: bp, minPayingFirstLine: needs[i]! })),
    holdDays,
  };
}

/** Parses the environment into a typed config; throws one readable error listing every bad setting. */
export function parseConfig(env: NodeJS.ProcessEnv = process.env) {
  const parsed = ZEnv.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  if (e.DATABASE_POOLER === 'transaction' && !e.DATABASE_LISTEN_URL) {
    // LISTEN through a transaction pooler hears nothing, and session locks leak across clients.
    throw new Error(
      'Invalid configuration:\n  DATABASE_LISTEN_URL: required with DATABASE_POOLER=transaction (a direct connection)',
    );
  }
  const dataDir = path.resolve(e.DATA_DIR);
  const publicUrl = e.PUBLIC_URL?.replace(/\/+$/, '') ?? localUrl(e.HOST, e.PORT);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    /** Where links point; follows the port the server got when PUBLIC_URL is unset (see withListeningPort). */
    publicUrl,
    isPublicUrlSet: e.PUBLIC_URL !== undefined,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    embeddedPgPort: e.EMBEDDED_PG_PORT,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    databaseListenUrl: e.DATABASE_LISTEN_URL,
    databasePooler: e.DATABASE_POOLER,
    smtpUrl: e.SMTP_URL,
    emailFrom: e.EMAIL_FROM,
    outboxDir: path.join(dataDir, 'outbox'),
    mediaDir: path.join(dataDir, 'media'),
    storage: parseStorageUrl(e.STORAGE_URL, {
      mediaDir: path.join(dataDir, 'media'),
      accessKeyId: e.AWS_ACCESS_KEY_ID,
      secretAccessKey: e.AWS_SECRET_ACCESS_KEY,
      sessionToken: e.AWS_SESSION_TOKEN,
      region: e.AWS_REGION,
      cdnUrl: e.MEDIA_CDN_URL,
    }),
    jwtSecret: e.JWT_SECRET,
    tokens: {
      accessSeconds: e.ACCESS_TOKEN_SECONDS,
      refreshSeconds: e.REFRESH_TOKEN_SECONDS,
      activationSeconds: e.ACTIVATION_TOKEN_SECONDS,
      passwordResetSeconds: e.PASSWORD_RESET_TOKEN_SECONDS,
    },
    telegram: {
      botToken: e.TELEGRAM_BOT_TOKEN,
      botUsername: e.TELEGRAM_BOT_USERNAME?.replace(/^@/, ''),
      webhookSecret: e.TELEGRAM_WEBHOOK_SECRET,
      apiBase: e.TELEGRAM_API_BASE.replace(/\/+$/, ''),
      initDataMaxAgeSeconds: e.TELEGRAM_INIT_DATA_MAX_AGE,
      authKeySeconds: e.TELEGRAM_AUTH_KEY_SECONDS,
      miniAppName: e.TELEGRAM_MINI_APP_NAME,
    },
    google: { clientId: e.GOOGLE_CLIENT_ID, certsUrl: e.GOOGLE_CERTS_URL },
    support: {
      telegramUrl: e.SUPPORT_TELEGRAM ? `https://t.me/${e.SUPPORT_TELEGRAM.replace(/^@/, '')}` : null,
      email: e.SUPPORT_EMAIL ?? null,
    },
    geoCountryHeader: e.GEO_COUNTRY_HEADER?.toLowerCase(),
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    hsts: e.HSTS,
    rateLimits: {
      windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS,
      loginPerIp: e.RATE_LIMIT_LOGIN_PER_IP,
      loginPerEmail: e.RATE_LIMIT_LOGIN_PER_EMAIL,
      loginFailuresPerAccount: e.RATE_LIMIT_LOGIN_FAILURES_PER_ACCOUNT,
      passwordCheckPerUser: e.RATE_LIMIT_PASSWORD_CHECK_PER_USER,
      registerPerIp: e.RATE_LIMIT_REGISTER_PER_IP,
      emailPerIp: e.RATE_LIMIT_EMAIL_PER_IP,
      emailPerAddress: e.RATE_LIMIT_EMAIL_PER_ADDRESS,
      uploadsPerUser: e.RATE_LIMIT_UPLOADS_PER_USER,
      promptHelperPerUser: e.RATE_LIMIT_PROMPT_HELPER_PER_USER,
      telegramAuthKeyPerIp: e.RATE_LIMIT_TELEGRAM_AUTH_KEY_PER_IP,
      qsPerUser: e.RATE_LIMIT_QS_PER_USER,
    },
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    sessionCacheSeconds: e.SESSION_CACHE_SECONDS,
    welcomeCredits: e.WELCOME_CREDITS,
    prices: modePricesFrom(e),
    freeTier: { dailyPhotos: e.FREE_DAILY_PHOTOS, delaySeconds: e.FREE_DELAY_SECONDS },
    partners: {
      ...partnerConfig(e.PARTNER_LEVELS, e.PARTNER_LEVEL_MIN_PAYING, e.PARTNER_HOLD_DAYS),
      testPaymentsEarn: e.PARTNER_TEST_PAYMENTS_EARN,
      /** Minor units per currency. */
      payoutMin: { 643: e.PAYOUT_MIN_RUB * 100, 840: e.PAYOUT_MIN_USD * 100 } as Record<number, number>,
      creditsPerUnit: { 643: e.WALLET_CREDITS_PER_RUB, 840: e.WALLET_CREDITS_PER_USD } as Record<
        number,
        number
      >,
    },
    payments: {
      catalogueJson: e.PAYMENTS_CATALOGUE,
      testProvider: e.PAYMENTS_TEST_PROVIDER ?? e.NODE_ENV !== 'production',
      yookassa:
        e.YOOKASSA_SHOP_ID && e.YOOKASSA_SECRET_KEY
          ? {
              shopId: e.YOOKASSA_SHOP_ID,
              secretKey: e.YOOKASSA_SECRET_KEY,
              apiBase: e.YOOKASSA_API_BASE.replace(/\/+$/, ''),
              methods: parseYooKassaMethods(e.YOOKASSA_METHODS),
              webhookNetworks: e.YOOKASSA_WEBHOOK_NETWORKS?.split(',')
                .map((n) => n.trim())
                .filter(Boolean),
            }
          : null,
      stripe:
        e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET
          ? {
              secretKey: e.STRIPE_SECRET_KEY,
              webhookSecret: e.STRIPE_WEBHOOK_SECRET,
              apiBase: e.STRIPE_API_BASE,
            }
          : null,
      cryptomus:
        e.CRYPTOMUS_MERCHANT_ID && e.CRYPTOMUS_API_KEY
          ? {
              merchantId: e.CRYPTOMUS_MERCHANT_ID,
              apiKey: e.CRYPTOMUS_API_KEY,
              apiBase: e.CRYPTOMUS_API_BASE.replace(/\/+$/, ''),
            }
          : null,
      stars: e.PAYMENTS_STARS ?? Boolean(e.TELEGRAM_BOT_TOKEN),
      reconcileAfterSeconds: e.PAYMENTS_RECONCILE_AFTER_SECONDS,
      offerVersion: e.LEGAL_OFFER_VERSION,
      privacyVersion: e.LEGAL_PRIVACY_VERSION,
    },
    premium: {
      planJson: e.PREMIUM_PLAN,
      renewAheadHours: e.PREMIUM_RENEW_AHEAD_HOURS,
      retryHours: e.PREMIUM_RETRY_HOURS,
      renewAttempts: e.PREMIUM_RENEW_ATTEMPTS,
    },
    engines: modeEnginesFrom(e),
    trainingEngines: parseEngineList(e.ENGINE_TRAINING),
    fal: e.FAL_KEY
      ? {
          key: e.FAL_KEY,
          baseUrl: e.FAL_BASE_URL?.replace(/\/+$/, '') ?? null,
          jwksUrl: e.FAL_JWKS_URL,
          userId: e.FAL_USER_ID ?? null,
          models: {
            textToImage: e.FAL_MODEL_SIMPLE,
            photoEdit: e.FAL_MODEL_EDITING,
            restyle: e.FAL_MODEL_STYLING,
            faceSwap: e.FAL_MODEL_FACE_SWAP,
            facePhoto: e.FAL_MODEL_FACE_PHOTO,
            imageToVideo: e.FAL_MODEL_VIDEO,
            textToVideo: e.FAL_MODEL_TEXT_TO_VIDEO,
            training: e.FAL_MODEL_TRAINING,
          },
        }
      : null,
    replicate: e.REPLICATE_API_TOKEN
      ? {
          token: e.REPLICATE_API_TOKEN,
          baseUrl: e.REPLICATE_BASE_URL.replace(/\/+$/, ''),
          webhookSecret: e.REPLICATE_WEBHOOK_SECRET ?? null,
          models: {
            text_to_image: e.REPLICATE_MODEL_SIMPLE,
            photo_edit: e.REPLICATE_MODEL_EDITING,
            restyle: e.REPLICATE_MODEL_STYLING,
            swap_face: e.REPLICATE_MODEL_FACE_SWAP,
            image_to_video: e.REPLICATE_MODEL_VIDEO,
          },
          training: e.REPLICATE_TRAINING_OWNER
            ? { owner: e.REPLICATE_TRAINING_OWNER, model: e.REPLICATE_MODEL_TRAINING }
            : null,
        }
      : null,
    comfyui: {
      servers: e.COMFYUI_URLS.split(',')
        .map((server) => server.trim().replace(/\/+$/, ''))
        .filter(Boolean),
      workflowsDir: e.COMFYUI_WORKFLOWS_DIR ? path.resolve(e.COMFYUI_WORKFLOWS_DIR) : null,
      lorasDir: e.COMFYUI_LORAS_DIR ? path.resolve(e.COMFYUI_LORAS_DIR) : null,
    },
    providerPrices: parseProviderPrices(e.PROVIDER_PRICES),
    generationTimeoutSeconds: e.GENERATION_TIMEOUT_SECONDS,
    generationMaxAttempts: e.GENERATION_MAX_ATTEMPTS,
    models: {
      trainingPrice: e.PRICE_MODEL_TRAINING,
      isFirstModelFree: e.FIRST_MODEL_FREE,
      minPhotos: e.MODEL_MIN_PHOTOS,
      maxPhotos: e.MODEL_MAX_PHOTOS,
      trainingTimeoutSeconds: e.MODEL_TRAINING_TIMEOUT_SECONDS,
    },
    uploads: {
      maxMegabytes: e.UPLOAD_MAX_MB,
      maxBytes: Math.floor(e.UPLOAD_MAX_MB * 1024 * 1024),
      maxPixels: e.UPLOAD_MAX_PIXELS,
      maxSide: e.UPLOAD_MAX_SIDE,
    },
    moderation: {
      images: e.MODERATION_IMAGES,
      thresholds: {
        explicit: e.MODERATION_EXPLICIT_THRESHOLD,
        suggestive: e.MODERATION_SUGGESTIVE_THRESHOLD,
      },
    },
    openai: {
      apiKey: e.OPENAI_API_KEY,
      baseUrl: e.OPENAI_BASE_URL.replace(/\/+$/, ''),
      imagesModel: e.OPENAI_IMAGES_MODEL,
      imagesQuality: e.OPENAI_IMAGES_QUALITY,
    },
    promptHelper: {
      baseUrl: e.PROMPT_HELPER_BASE_URL?.replace(/\/+$/, ''),
      apiKey: e.PROMPT_HELPER_API_KEY,
      model: e.PROMPT_HELPER_MODEL,
      timeoutSeconds: e.PROMPT_HELPER_TIMEOUT_SECONDS,
    },
    posts: { reportHideThreshold: e.POST_REPORT_HIDE_THRESHOLD },
    runWorker: e.RUN_WORKER,
    webConcurrency: e.WEB_CONCURRENCY,
    workerConcurrency: e.WORKER_CONCURRENCY,
    imagingThreads: e.IMAGING_THREADS,
    logLevel: e.LOG_LEVEL,
    metricsToken: e.METRICS_TOKEN,
    metricsWorkerPort: e.METRICS_WORKER_PORT,
    errorReporting: {
      dsn: e.SENTRY_DSN,
      webDsn: e.SENTRY_DSN_WEB,
      environment: e.SENTRY_ENVIRONMENT ?? e.NODE_ENV,
      release: e.SENTRY_RELEASE ?? `mirra@${env.npm_package_version ?? '0.0.0'}`,
    },
    webDistDir: e.WEB_DIST_DIR ? path.resolve(e.WEB_DIST_DIR) : undefined,
    devTelegramMock: e.DEV_TELEGRAM_MOCK && e.NODE_ENV !== 'production',
    devClockFile: e.NODE_ENV !== 'production' ? (e.DEV_CLOCK_FILE ?? null) : null,
  };
}

const YOOKASSA_METHOD_TYPES = ['bank_card', 'sberbank', 'sbp'] as const;
function parseYooKassaMethods(list: string): Array<(typeof YOOKASSA_METHOD_TYPES)[number]> {
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

function parseTrustProxy(value: string | undefined): boolean | number | string[] {
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
