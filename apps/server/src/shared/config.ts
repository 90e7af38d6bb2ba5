import path from 'node:path';
import { ZEnv } from './config.env.js';
import { modeEnginesFrom, modePricesFrom } from './config.modes.js';
import {
  localUrl,
  parseEngineList,
  parsePartnerLevels,
  parsePartnerQualification,
  parseProviderPrices,
  parseStorageUrl,
  parseTrustProxy,
  parseYooKassaMethods,
} from './config.parse.js';

// The parsers are re-exported: the engines, the runtime and tests read them from here.
export {
  localUrl,
  parseEngineList,
  parsePartnerLevels,
  parsePartnerQualification,
  parseProviderPrices,
  parseStorageUrl,
  providerCost,
  type ProviderPrice,
} from './config.parse.js';

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
      verifyPerIp: e.RATE_LIMIT_VERIFY_PER_IP,
      takedownsPerIp: e.RATE_LIMIT_TAKEDOWNS_PER_IP,
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
            facePhotoInstant: e.FAL_MODEL_FACE_PHOTO_INSTANT,
            imageToVideo: e.FAL_MODEL_VIDEO,
            textToVideo: e.FAL_MODEL_TEXT_TO_VIDEO,
            upscale: e.FAL_MODEL_UPSCALE,
            restore: e.FAL_MODEL_RESTORE,
            cutOut: e.FAL_MODEL_BACKGROUND,
            inpaint: e.FAL_MODEL_INPAINT,
            outpaint: e.FAL_MODEL_OUTPAINT,
            tryOn: e.FAL_MODEL_TRY_ON,
            talkingFromVoice: e.FAL_MODEL_TALKING_PHOTO,
            talkingFromText: e.FAL_MODEL_TALKING_PHOTO_TEXT,
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
            masked_fill: e.REPLICATE_MODEL_INPAINT,
            canvas_fill: e.REPLICATE_MODEL_OUTPAINT,
            super_resolution: e.REPLICATE_MODEL_UPSCALE,
            photo_repair: e.REPLICATE_MODEL_RESTORE,
            cut_out: e.REPLICATE_MODEL_BACKGROUND,
            garment_swap: e.REPLICATE_MODEL_TRY_ON,
          },
          facePhotoInstant: e.REPLICATE_MODEL_FACE_PHOTO_INSTANT,
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
    likenessThreshold: e.LIKENESS_THRESHOLD,
    generationMaxAttempts: e.GENERATION_MAX_ATTEMPTS,
    models: {
      trainingPrice: e.PRICE_MODEL_TRAINING,
      isFirstModelFree: e.FIRST_MODEL_FREE,
      minPhotos: e.MODEL_MIN_PHOTOS,
      maxPhotos: e.MODEL_MAX_PHOTOS,
      trainingTimeoutSeconds: e.MODEL_TRAINING_TIMEOUT_SECONDS,
    },
    provenance: { certFile: e.C2PA_CERT_FILE, keyFile: e.C2PA_KEY_FILE },
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
