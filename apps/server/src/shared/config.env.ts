import { PRICING_BOUNDS } from '@mirra/contracts';
import { z } from 'zod';
import { MODE_ENGINE_ENV, MODE_PRICE_ENV } from './config.modes.js';
import { bool, optionalString, seconds, withinBounds } from './config.parse.js';
import { defaultThreadCount } from './thread-pool.js';

/**
 * Every setting of the server, read once from the environment. Defaults make `npm start` work on a
 * fresh machine with nothing configured; each one is documented in the README's table.
 */
export const ZEnv = z.object({
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
  /**
   * A face photo of a model still in training (no LoRA yet): Kontext, which keeps the person of its
   * `image_url` (the model's best reference photo) in the scene the prompt describes.
   */
  FAL_MODEL_FACE_PHOTO_INSTANT: z.string().default('fal-ai/flux-pro/kontext'),
  FAL_MODEL_VIDEO: z.string().default('fal-ai/kling-video/v2.1/standard/image-to-video'),
  FAL_MODEL_TEXT_TO_VIDEO: z.string().default('fal-ai/kling-video/v2.1/standard/text-to-video'),
  FAL_MODEL_UPSCALE: z.string().default('fal-ai/clarity-upscaler'),
  FAL_MODEL_RESTORE: z.string().default('fal-ai/codeformer'),
  FAL_MODEL_BACKGROUND: z.string().default('fal-ai/birefnet/v2'),
  FAL_MODEL_INPAINT: z.string().default('fal-ai/flux-pro/v1/fill'),
  FAL_MODEL_OUTPAINT: z.string().default('fal-ai/flux-pro/v1/fill'),
  FAL_MODEL_TRY_ON: z.string().default('fashn/tryon/v1.6'),
  FAL_MODEL_TALKING_PHOTO: z.string().default('veed/fabric-1.0'),
  FAL_MODEL_TALKING_PHOTO_TEXT: z.string().default('veed/fabric-1.0/text'),
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
  /**
   * A face photo of a model still in training (no LoRA yet): FLUX Kontext Pro, an official model
   * (called by name), which keeps the person of its `input_image` (the model's best reference
   * photo) in the scene the prompt describes.
   */
  REPLICATE_MODEL_FACE_PHOTO_INSTANT: z.string().default('black-forest-labs/flux-kontext-pro'),
  REPLICATE_MODEL_INPAINT: z.string().default('black-forest-labs/flux-fill-pro'),
  REPLICATE_MODEL_OUTPAINT: z.string().default('black-forest-labs/flux-fill-pro'),
  /**
   * The tools at Replicate. A community model runs by version (`owner/name:version`), pinned to one
   * Replicate listed as the model's latest in 2025, so the inputs sent are the ones it reads.
   * Real-ESRGAN (`image`, `scale`, `face_enhance`; answers one file URL).
   */
  REPLICATE_MODEL_UPSCALE: z
    .string()
    .default('nightmareai/real-esrgan:b3ef194191d13140337468c916c2c5b96dd0cb06dffc032a022a31807f6a5ea8'),
  /** CodeFormer (`image`, `codeformer_fidelity`, `background_enhance`, `face_upsample`, `upscale`). */
  REPLICATE_MODEL_RESTORE: z
    .string()
    .default('sczhou/codeformer:cc4956dd26fa5a7185d5660cc9100fab1b8070a1d1654a8bb5eb6d443b020bb2'),
  /** Bria RMBG 2.0, an official model run by name (`image`; answers a PNG with transparency). */
  REPLICATE_MODEL_BACKGROUND: z.string().default('bria/remove-background'),
  /**
   * IDM-VTON (`human_img`, `garm_img`, `garment_des`, `category`, `crop`, `steps`, `seed`). Its
   * weights are licensed CC BY-NC-SA 4.0: a commercial operator sets a model licensed for it here.
   */
  REPLICATE_MODEL_TRY_ON: z
    .string()
    .default('cuuupid/idm-vton:0513734a452173b8173e907e3a59d19a36266e55b48528559432bd21c7d7e985'),
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
  /**
   * The least likeness (0–1, face descriptor similarity to the model's photos) a face result needs
   * to be shown; below it the picture is made once more with a new seed, then refunded. 0 turns the
   * check off. Measured on the test portraits: the same person 0.95–1.0, other people 0.20–0.33.
   */
  LIKENESS_THRESHOLD: z.coerce.number().min(0).max(1).default(0.5),
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
  /** Files checked on the verify page (POST /api/verify/, open to anyone) per address and window. */
  RATE_LIMIT_VERIFY_PER_IP: z.coerce.number().int().min(1).default(30),
  /** Takedown requests (POST /api/takedowns/, open to anyone) per address and window. */
  RATE_LIMIT_TAKEDOWNS_PER_IP: z.coerce.number().int().min(1).default(10),
  /**
   * The operator's C2PA signing certificate (PEM: the certificate, then its intermediates) and its
   * ECDSA P-256 key (PEM, PKCS#8). Unset: a development pair is made once in DATA_DIR.
   */
  C2PA_CERT_FILE: optionalString,
  C2PA_KEY_FILE: optionalString,
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
