import type { Database } from '../shared/db/client.js';
import type { NotificationHub } from '../shared/db/notifications.js';
import { createStorage } from '../shared/storage/create-storage.js';
import { createMediaUrls } from '../shared/storage/media-urls.js';
import {
  type ImageModerator,
  type PromptModerator,
  createNsfwImageModerator,
  createPassThroughImageModerator,
  createOpenAiModerationClient,
  createPromptModerator,
} from '../modules/moderation/index.js';
import { createBuiltInEngines, createEngineRegistry, type EngineRegistry } from '../engines/index.js';
import {
  createGenerationEvents,
  type GenerationEvents,
  type GenerationSources,
} from '../modules/generations/index.js';
import {
  createSessionCache,
  type SessionCache,
  createTokenService,
  type TokenService,
} from '../modules/auth/index.js';
import { createFaceAnalyzer, type FaceAnalyzer } from '@mirra/imaging';
import { MODEL_EVENTS_CHANNEL, type ModelPosts } from '../modules/models/index.js';
import {
  createModelPosts,
  postGenerationSources,
  type PublishedPostCounter,
} from '../modules/posts/index.js';
import { profilePublishedPostCounter } from '../modules/social/index.js';
import type { SharedDeps } from '../shared/deps.js';
import type { ThreadPool } from '../shared/thread-pool.js';
import { createImagingThreads, pooledFaceAnalyzer, pooledNsfwClassifier } from './imaging-threads.js';
import type { Logger } from '../shared/logger.js';
import { createMailer } from '../shared/mailer/mailer.js';
import { createRateLimiter } from '../shared/rate-limiter.js';
import {
  createTelegramBotApi,
  type StarsPaymentUpdates,
  type TelegramBotApi,
} from '../modules/telegram/index.js';
import { createGoogleVerifier, type GoogleVerifier } from '../modules/google/index.js';
import { createGeoLocator, type GeoLocator } from '../modules/geo/index.js';
import { createPartnerPaymentListener } from '../modules/partners/index.js';
import type { Config } from '../shared/config.js';
import { createFileOffsetClock } from '../shared/dev-clock.js';
import { createModelTrainers, type ModelTrainer } from '../engines/index.js';
import { createPricingSettings, type PricingSettings } from '../modules/pricing/index.js';
import {
  parseCatalogue,
  createStarsPaymentUpdates,
  type PaymentListener,
  type PaymentPurposeHandlers,
} from '../modules/payments/index.js';
import { applySubscriptionPayment, parsePremiumPlan } from '../modules/subscriptions/index.js';

/**
 * Everything any module may need, built once at start: the shared plumbing and the services
 * modules provide. Each module takes only its own `<Name>Deps` slice of this; passing AppDeps to
 * a module's routes or jobs proves at compile time that the slice is satisfied. Tests build the
 * same object against a real database and local fakes.
 */
export interface AppDeps extends SharedDeps {
  tokens: TokenService;
  sessionCache: SessionCache;
  /** Null when no bot token is configured: Telegram features answer `auth.telegram_unavailable`. */
  telegramBot: TelegramBotApi | null;
  /** Null when no Google client id is configured. */
  google: GoogleVerifier | null;
  geo: GeoLocator;
  /** Profiles' count of published posts, kept by social and changed by posts. */
  publishedPostCounter: PublishedPostCounter;
  /** Checks prompts before anything is charged. */
  promptModerator: PromptModerator;
  /** Checks results before anyone sees them. */
  imageModerator: ImageModerator;
  /** The engine for each generation mode (configuration). */
  engines: EngineRegistry;
  /** Live generation progress for server-sent events. */
  generationEvents: GenerationEvents;
  /** Posts as the sources of generations (repeat/remix and its royalty), provided by posts. */
  generationSources: GenerationSources;
  /** Live training progress of digital models (same event shape, own channel). */
  modelEvents: GenerationEvents;
  /** Posts made with a model, taken down when its person withdraws consent (provided by posts). */
  modelPosts: ModelPosts;
  /** Face detection, mesh and descriptor (models load once per thread, on first use). */
  faceAnalyzer: FaceAnalyzer;
  /**
   * The threads pixel work and model inference run on (IMAGING_THREADS); null with 0, when it runs
   * on this event loop. Its owner closes it when the process stops.
   */
  imagingThreads: ThreadPool | null;
  /** Providers that train digital models' LoRAs (ENGINE_TRAINING), in order. */
  modelTrainers: ModelTrainer[];
  /** What modules selling their own things do when those orders are paid or refunded. */
  purposeHandlers: PaymentPurposeHandlers;
  /** Modules listening to payments and refunds (the partner programme's commissions and clawback). */
  paymentListeners: PaymentListener[];
  /** Where the bot hands Telegram Stars payment updates (payments). */
  starsPayments: StarsPaymentUpdates | null;
  /** Generation prices, the free tier, packs and the plan in force (configuration + staff console). */
  pricing: PricingSettings;
}

/** The catalogue and prices of the configuration: what applies where the console changed nothing. */
export function pricingDefaults(config: Config) {
  return {
    prices: config.prices,
    free_tier: { daily_photos: config.freeTier.dailyPhotos, delay_seconds: config.freeTier.delaySeconds },
    catalogue: parseCatalogue(config.payments.catalogueJson),
    plan: parsePremiumPlan(config.premium.planJson),
  };
}

export function createDeps(options: {
  config: Config;
  database: Database;
  logger: Logger;
  jwtSecret: string;
  notifications: NotificationHub | null;
  overrides?: Partial<AppDeps>;
}): AppDeps {
  const { config, database, logger, jwtSecret } = options;
  const now =
    options.overrides?.now ??
    (config.devClockFile ? createFileOffsetClock(config.devClockFile) : () => new Date());
  const storage = options.overrides?.storage ?? createStorage(config.storage);
  // Threads start on the first task: a process that never does pixel work holds none.
  const imagingThreads =
    options.overrides?.imagingThreads !== undefined
      ? options.overrides.imagingThreads
      : config.imagingThreads > 0
        ? createImagingThreads(config.imagingThreads)
        : null;
  const deps: AppDeps = {
    config,
    database,
    db: database.db,
    logger,
    linkSecret: jwtSecret,
    tokens: createTokenService({
      secret: jwtSecret,
      accessSeconds: config.tokens.accessSeconds,
      refreshSeconds: config.tokens.refreshSeconds,
    }),
    mailer: createMailer({ smtpUrl: config.smtpUrl, outboxDir: config.outboxDir, from: config.emailFrom }),
    rateLimiter: createRateLimiter(database.db, now),
    notifications: options.notifications,
    sessionCache: createSessionCache(config.sessionCacheSeconds > 0 ? options.notifications : null, {
      ttlMs: config.sessionCacheSeconds * 1000,
      maxEntries: 50_000,
    }),
    telegramBot: config.telegram.botToken
      ? createTelegramBotApi({ apiBase: config.telegram.apiBase, botToken: config.telegram.botToken })
      : null,
    google: config.google.clientId
      ? createGoogleVerifier({ clientId: config.google.clientId, certsUrl: config.google.certsUrl })
      : null,
    geo: createGeoLocator({ countryHeader: config.geoCountryHeader }),
    storage,
    mediaUrls: createMediaUrls(jwtSecret, { defaultTtlSeconds: 24 * 3600, direct: storage.directUrls }),
    promptModerator: createPromptModerator({
      openai: config.openai.apiKey
        ? createOpenAiModerationClient({
            baseUrl: config.openai.baseUrl,
            apiKey: config.openai.apiKey,
            timeoutMs: 5000,
          })
        : null,
      logger,
    }),
    // The classifier loads on its first result (seconds), not here.
    imageModerator: config.moderation.images
      ? createNsfwImageModerator({
          thresholds: config.moderation.thresholds,
          classify: imagingThreads ? pooledNsfwClassifier(imagingThreads) : undefined,
        })
      : createPassThroughImageModerator(),
    engines: createEngineRegistry(
      config,
      createBuiltInEngines(config, { localThreads: imagingThreads ?? undefined }),
    ),
    generationEvents: createGenerationEvents(options.notifications),
    generationSources: postGenerationSources,
    publishedPostCounter: profilePublishedPostCounter,
    modelEvents: createGenerationEvents(options.notifications, MODEL_EVENTS_CHANNEL),
    modelPosts: createModelPosts({
      publishedPostCounter: options.overrides?.publishedPostCounter ?? profilePublishedPostCounter,
    }),
    faceAnalyzer: imagingThreads ? pooledFaceAnalyzer(imagingThreads) : createFaceAnalyzer(),
    imagingThreads,
    modelTrainers: createModelTrainers(config),
    starsPayments: null,
    pricing: createPricingSettings({
      db: database.db,
      hub: options.notifications,
      defaults: pricingDefaults(config),
      logger,
    }),
    now,
    purposeHandlers: {},
    paymentListeners: [],
    ...options.overrides,
  };
  // The partner programme: commissions on paid orders, clawback on refunds (with the finished deps'
  // clock and configuration).
  if (!options.overrides?.paymentListeners) deps.paymentListeners = [createPartnerPaymentListener(deps)];
  // Handlers see the finished deps (the clock and configuration a test may have overridden).
  deps.purposeHandlers = {
    subscription: (tx, order, event, before) => applySubscriptionPayment(deps, tx, order, event, before),
    ...options.overrides?.purposeHandlers,
  };
  // Reads the deps when an update arrives, so a test's later change of the bot or handlers holds.
  if (!options.overrides?.starsPayments) deps.starsPayments = createStarsPaymentUpdates(deps);
  return deps;
}
