import { sql } from 'drizzle-orm';
import type {
  FaceAnalysis,
  FaceProfile,
  PayoutRequisites,
  StoredPostImage,
  StoredProviderLoras,
  StoredResult,
  TNotificationData,
} from './json-columns.js';
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** People. Email is absent for accounts made through Telegram until they add one. */
export const users = pgTable(
  'users',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    uuid: uuid('uuid').notNull().unique().defaultRandom(),
    email: text('email'),
    passwordHash: text('password_hash'),
    /** Email accounts start inactive until the activation link is followed. */
    isActive: boolean('is_active').notNull().default(false),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    username: text('username').notNull().default(''),
    phone: text('phone').notNull().default(''),
    instagram: text('instagram').notNull().default(''),
    language: text('language'),
    referralCode: text('referral_code').notNull().unique(),
    refererId: bigint('referer_id', { mode: 'number' }).references((): AnyPgColumn => users.id, {
      onDelete: 'set null',
    }),
    /** True when the user has a trained digital model (the API's `lora`). */
    hasLora: boolean('has_lora').notNull().default(false),
    /**
     * Start of the free tier's current day (the user's local midnight when it began). It moves on
     * only once 24 h have passed, so a changed `timezone` cookie cannot start a new day early.
     */
    freeDayStartedAt: timestamp('free_day_started_at', { withTimezone: true }),
    telegramId: bigint('telegram_id', { mode: 'number' }).unique(),
    telegramUsername: text('telegram_username'),
    telegramPhotoUrl: text('telegram_photo_url'),
    telegramAllowsWrite: boolean('telegram_allows_write').notNull().default(false),
    googleSub: text('google_sub').unique(),
    lastLogin: timestamp('last_login', { withTimezone: true }),
    /** Staff level: `moderator` reviews reports; `admin` also manages people, credits and generations. */
    staffRole: text('staff_role', { enum: ['moderator', 'admin'] }),
    /** Set while the account is banned: no session works and every way of signing in is refused. */
    bannedAt: timestamp('banned_at', { withTimezone: true }),
    /**
     * Set when the owner deleted the account. The row stays (money ledgers and partner history
     * point at it, as the law requires) but holds no personal data, signs nobody in and has no files.
     */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    dateJoined: timestamp('date_joined', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_unique')
      .on(t.email)
      .where(sql`${t.email} IS NOT NULL`),
    uniqueIndex('users_username_unique')
      .on(sql`lower(${t.username})`)
      .where(sql`${t.username} <> ''`),
    index('users_referer_idx').on(t.refererId),
    // Nobody is their own partner; that the referer is set only at creation (so no cycle can form)
    // is a trigger in the migration that adds this check.
    check('users_referer_not_self', sql`${t.refererId} <> ${t.id}`),
  ],
);

/**
 * A sign-in session: every refresh token issued from one sign-in shares a family. Revoking the
 * family (logout, password change, reuse of a rotated token) ends all of its tokens at once,
 * access tokens included, since they carry the family id.
 */
export const tokenFamilies = pgTable(
  'token_families',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedReason: text('revoked_reason'),
  },
  (t) => [index('token_families_user_idx').on(t.userId)],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    jti: uuid('jti').primaryKey(),
    familyId: uuid('family_id')
      .notNull()
      .references(() => tokenFamilies.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Set when the token is exchanged; presenting it again means it was stolen. */
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('refresh_tokens_family_idx').on(t.familyId)],
);

/** Fixed-window counters shared by every API process (so limits hold behind a load balancer). */
export const rateLimitCounters = pgTable('rate_limit_counters', {
  key: text('key').primaryKey(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  hits: integer('hits').notNull(),
});

/** Web sign-in through the bot: the browser holds `uuid`, the t.me link carries the secret key. */
export const telegramAuthKeys = pgTable(
  'telegram_auth_keys',
  {
    uuid: uuid('uuid').primaryKey().defaultRandom(),
    /** sha256 of the key in the link; the key itself is never stored. */
    keyHash: text('key_hash').notNull().unique(),
    /** Set when a signed-in user asked for the key: pressing Start links Telegram to them. */
    requestedByUserId: bigint('requested_by_user_id', { mode: 'number' }).references(() => users.id, {
      onDelete: 'cascade',
    }),
    /** The partner link the browser had followed: an account created for this key is attributed to it. */
    referralCode: text('referral_code'),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, {
      onDelete: 'cascade',
    }),
    status: text('status', { enum: ['pending', 'confirmed', 'consumed'] })
      .notNull()
      .default('pending'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [index('telegram_auth_keys_expires_idx').on(t.expiresAt)],
);

/** Bot updates already handled; Telegram re-delivers on any non-2xx, so each is applied once. */
export const telegramUpdates = pgTable('telegram_updates', {
  updateId: bigint('update_id', { mode: 'number' }).primaryKey(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Query strings saved behind a short id, for the Mini App's `qs_<id>` start parameter. */
export const savedQueryStrings = pgTable(
  'saved_query_strings',
  {
    id: text('id').primaryKey(),
    qs: text('qs').notNull(),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, {
      onDelete: 'set null',
    }),
    createdAt: createdAt(),
  },
  (t) => [check('saved_query_strings_qs_length', sql`length(${t.qs}) <= 2000`)],
);

/**
 * A user's credit balance, cached from the ledger and changed only in the same transaction as the
 * entry that explains it. Kept out of `users` so balance changes do not wake the session cache.
 */
export const creditAccounts = pgTable(
  'credit_accounts',
  {
    userId: bigint('user_id', { mode: 'number' })
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    balance: integer('balance').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('credit_accounts_balance_not_negative', sql`${t.balance} >= 0`)],
);

/** The credits ledger: append-only; corrections are new entries. */
export const creditEntries = pgTable(
  'credit_entries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    delta: integer('delta').notNull(),
    kind: text('kind').notNull(),
    ref: text('ref'),
    /** The same operation retried (a job run twice, a double click) finds its entry here. */
    idempotencyKey: text('idempotency_key').notNull().unique(),
    balanceAfter: integer('balance_after').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('credit_entries_user_idx').on(t.userId, t.id)],
);

/**
 * What an author has earned from generations made from their posts but not yet received: the
 * fraction of a credit (in hundredths) left over after paying whole credits, carried to the next
 * use so that no spend's share is lost.
 */
export const royaltyCarries = pgTable(
  'royalty_carries',
  {
    userId: bigint('user_id', { mode: 'number' })
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    hundredths: integer('hundredths').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('royalty_carries_below_one_credit', sql`${t.hundredths} >= 0 AND ${t.hundredths} < 100`)],
);

/** Mismatches the nightly reconciliation found between a ledger and its cached balance. */
export const creditAuditFindings = pgTable('credit_audit_findings', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  userId: bigint('user_id', { mode: 'number' }).notNull(),
  cachedBalance: integer('cached_balance').notNull(),
  ledgerSum: integer('ledger_sum').notNull(),
  foundAt: timestamp('found_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * What the nightly partner and wallet reconciliation found: a commission whose wallet entries do
 * not add up to it, a pay-out whose reserve entry disagrees with it, a team or monthly aggregate
 * that disagrees with the commissions it is derived from. `repaired` marks derived rows the job
 * rebuilt; the rest (money) are for an operator to look into.
 */
export const walletAuditFindings = pgTable(
  'wallet_audit_findings',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    check: text('check', {
      enum: ['commission_entries', 'payout_reserve', 'partner_monthly', 'partner_paying', 'partner_members'],
    }).notNull(),
    userId: bigint('user_id', { mode: 'number' }),
    /** The commission's wallet key, the pay-out's uuid, the month or level of the aggregate. */
    ref: text('ref').notNull(),
    expected: text('expected').notNull(),
    actual: text('actual').notNull(),
    repaired: boolean('repaired').notNull().default(false),
    foundAt: timestamp('found_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('wallet_audit_findings_found_idx').on(t.foundAt)],
);

/** Paid features with an end date: `premium` (subscription) and `unlimited` (no free-tier pause). */
export const entitlements = pgTable(
  'entitlements',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['premium', 'unlimited'] }).notNull(),
    until: timestamp('until', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('entitlements_user_kind').on(t.userId, t.kind)],
);

/** Photos people upload (sources, references, targets). Private to their owner. */
export const uploads = pgTable(
  'uploads',
  {
    uuid: uuid('uuid').primaryKey().defaultRandom(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    contentType: text('content_type').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    bytes: integer('bytes').notNull(),
    storageKey: text('storage_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('uploads_user_idx').on(t.userId)],
);

export const generations = pgTable(
  'generations',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    uuid: uuid('uuid').notNull().unique().defaultRandom(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    mode: text('mode').notNull(),
    /** Task codes, fixed because clients compare them: NEW 0, IN_QUEUE 30, IN_PROGRESS 60, COMPLETED 100, ERROR -100, FAILED -200. */
    status: integer('status').notNull().default(0),
    progress: integer('progress').notNull().default(0),
    prompt: text('prompt').notNull().default(''),
    guidance: real('guidance').notNull(),
    seed: integer('seed').notNull(),
    /**
     * The person chose the seed (advanced settings): Repeat keeps it. A seed drawn at random is
     * drawn again on Repeat, so Repeat makes a new variation rather than the same picture.
     */
    seedFixed: boolean('seed_fixed').notNull().default(false),
    style: text('style'),
    durationSeconds: integer('duration_seconds'),
    /** Video frame shape (VIDEO_ASPECTS: 9:16, 1:1, 16:9); null for pictures. */
    aspect: text('aspect'),
    inputUploads: uuid('input_uploads')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    modelUuid: uuid('model_uuid'),
    postUuid: uuid('post_uuid'),
    repeatOf: uuid('repeat_of'),
    cost: integer('cost').notNull(),
    engine: text('engine').notNull(),
    /**
     * Staff retried it on this one engine by hand: the job runs `engine` only, not the mode's
     * fallback list.
     */
    enginePinned: boolean('engine_pinned').notNull().default(false),
    /** A provider's job id, so a long job is resumed (poll or webhook) rather than held in memory. */
    providerJobId: text('provider_job_id'),
    /** The engine that accepted `provider_job_id`: a resumed job goes back to that provider. */
    provider: text('provider'),
    /** What the provider charged for the result (USD, from the price table), for margin per mode. */
    providerCostUsd: real('provider_cost_usd'),
    /** While a provider holds the job in its queue: how many jobs are ahead of it (0 = next). */
    queuePosition: integer('queue_position'),
    /** Stored result: storage keys and sizes of the original and its variants, and engine notes. */
    result: jsonb('result').$type<StoredResult>(),
    errorCode: text('error_code'),
    errorDetail: text('error_detail'),
    /** GENERATION_FAILURE_REASONS: what the engine found wrong with the request (bad input). */
    errorReason: text('error_reason'),
    /** The client's Idempotency-Key: a resent request returns this generation, charged once. */
    clientKey: text('client_key'),
    /** A hash of the inputs the keyed request sent: the key again with other inputs is refused. */
    clientRequestHash: text('client_request_hash'),
    refunded: boolean('refunded').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('generations_user_idx').on(t.userId, t.id),
    uniqueIndex('generations_user_client_key_unique')
      .on(t.userId, t.clientKey)
      .where(sql`${t.clientKey} IS NOT NULL`),
    // The free tier counts a user's generations since their local midnight.
    index('generations_user_created_idx').on(t.userId, t.createdAt),
    // The reconciler's scan: only unfinished generations, oldest change first.
    index('generations_unfinished_idx')
      .on(t.updatedAt)
      .where(sql`${t.status} IN (0, 30, 60)`),
  ],
);

/**
 * In-app notifications (new subscriber, royalty, model ready, generation finished, post removed).
 * Written inside the transaction of the event they tell of; `dedupe_key` makes a retried event
 * (a job run twice) notify once.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    data: jsonb('data')
      .$type<TNotificationData>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    dedupeKey: text('dedupe_key').unique(),
    createdAt: createdAt(),
    readAt: timestamp('read_at', { withTimezone: true }),
    /**
     * False when the user turned in-app notices of this kind off: the row still records that the
     * event was told (its dedupe key, the bot and email deliveries) but the list never shows it.
     */
    inApp: boolean('in_app').notNull().default(true),
  },
  (t) => [
    index('notifications_user_idx').on(t.userId, t.id),
    // The menu badge counts only unread ones.
    index('notifications_unread_idx')
      .on(t.userId)
      .where(sql`${t.readAt} IS NULL`),
  ],
);

/**
 * A user's choice per notice category and channel (`in_app`, `telegram`, `email`). Only choices a
 * user made are stored; a missing row means the default (NOTIFICATION_DEFAULTS in the contracts).
 */
export const notificationPreferences = pgTable(
  'notification_preferences',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    category: text('category').notNull(),
    channel: text('channel').notNull(),
    enabled: boolean('enabled').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.category, t.channel] })],
);

/**
 * Personal digital models. Built once from the owner's checked photos; training is a
 * job like a generation, with the same status codes. `profile` is what the local engine learned
 * (see @mirra/imaging faces/face-profile.models.ts); provider engines will keep their LoRA's id beside it.
 */
export const models = pgTable(
  'models',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    uuid: uuid('uuid').notNull().unique().defaultRandom(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    category: text('category').notNull(),
    /** NEW 0 (collecting photos), IN_QUEUE 30, IN_PROGRESS 60, COMPLETED 100, ERROR -100, FAILED -200. */
    status: integer('status').notNull().default(0),
    progress: integer('progress').notNull().default(0),
    /** Each start of training is an attempt with its own charge and refund keys (a failed one may be retried). */
    trainingAttempt: integer('training_attempt').notNull().default(0),
    /** Credits charged for the current attempt. */
    cost: integer('cost').notNull().default(0),
    refunded: boolean('refunded').notNull().default(false),
    engine: text('engine').notNull().default('local'),
    profile: jsonb('profile').$type<FaceProfile>(),
    /** LoRAs trained for this model at providers, by engine: `{fal: {url, triggerWord}}`. */
    providerLoras: jsonb('provider_loras').$type<StoredProviderLoras>(),
    /** The provider training this attempt and its job id: a rerun resumes it, never submits twice. */
    trainingProvider: text('training_provider'),
    trainingJobId: text('training_job_id'),
    /** Good photos (what the model is built from); kept with the photos in the same transaction. */
    referenceCount: integer('reference_count').notNull().default(0),
    photoCount: integer('photo_count').notNull().default(0),
    errorCode: text('error_code'),
    errorDetail: text('error_detail'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    trainingStartedAt: timestamp('training_started_at', { withTimezone: true }),
    trainedAt: timestamp('trained_at', { withTimezone: true }),
  },
  (t) => [
    index('models_user_idx').on(t.userId, t.id),
    // The training reconciler's scan: only models in training, oldest change first.
    index('models_training_idx')
      .on(t.updatedAt)
      .where(sql`${t.status} IN (30, 60)`),
  ],
);

/** The photos of a model: private originals, a preview, and what the face analysis found. */
export const modelPhotos = pgTable(
  'model_photos',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    uuid: uuid('uuid').notNull().unique().defaultRandom(),
    modelId: bigint('model_id', { mode: 'number' })
      .notNull()
      .references(() => models.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    storageKey: text('storage_key').notNull(),
    thumbnailKey: text('thumbnail_key').notNull(),
    /** The aligned face crop training made from it (null until trained, or without a usable face). */
    alignedKey: text('aligned_key'),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    bytes: integer('bytes').notNull(),
    /** The face analysis (main face in full, others by box): photos are re-judged without re-analysis. */
    analysis: jsonb('analysis').$type<FaceAnalysis>().notNull(),
    ok: boolean('ok').notNull(),
    problems: text('problems')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    tips: text('tips')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    pose: text('pose'),
    /** Perceptual fingerprint (faces/photo-fingerprint.models.ts): finds copies of a photo already in the model. */
    fingerprint: text('fingerprint'),
    createdAt: createdAt(),
  },
  (t) => [index('model_photos_model_idx').on(t.modelId, t.id)],
);

/** A PostgreSQL full-text document (drizzle has no built-in type for it). */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * A published (or draft) result with its prompt. The recipe (mode, prompt, settings, seed) and the
 * result's files are copied from the generation when it is posted, so feeds read one row per post
 * and the author's private inputs (source photos) are never part of it. Counters are kept in the
 * transaction of each change, so lists never count rows; `score` (recommended tab) is computed
 * from them by the `posts_score` trigger (migration 0009_posts_score, the same formula as posts.models.ts).
 */
export const posts = pgTable(
  'posts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    uuid: uuid('uuid').notNull().unique().defaultRandom(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    generationId: bigint('generation_id', { mode: 'number' })
      .notNull()
      .unique()
      .references(() => generations.id, { onDelete: 'cascade' }),
    /** The generation's public id, shown to the author only. */
    generationUuid: uuid('generation_uuid').notNull(),
    status: text('status', { enum: ['draft', 'published', 'hidden'] })
      .notNull()
      .default('draft'),
    title: text('title').notNull().default(''),
    prompt: text('prompt').notNull().default(''),
    mode: text('mode').notNull(),
    guidance: real('guidance').notNull(),
    style: text('style'),
    seed: integer('seed').notNull(),
    durationSeconds: integer('duration_seconds'),
    /** The result's original and WebP variants (storage keys and sizes), as generations.result. */
    image: jsonb('image').$type<StoredPostImage>().notNull(),
    savesCount: integer('saves_count').notNull().default(0),
    viewsCount: integer('views_count').notNull().default(0),
    repeatsCount: integer('repeats_count').notNull().default(0),
    remixesCount: integer('remixes_count').notNull().default(0),
    /** Distinct people who reported it and are not yet answered by a review. */
    reportsCount: integer('reports_count').notNull().default(0),
    score: doublePrecision('score').notNull().default(0),
    /** Title and prompt for full-text search: `simple` (every language, unstemmed) plus the stemmers PostgreSQL has. */
    search: tsvector('search')
      .notNull()
      .generatedAlwaysAs(
        sql`to_tsvector('simple'::regconfig, title || ' ' || prompt) || to_tsvector('english'::regconfig, title || ' ' || prompt) || to_tsvector('russian'::regconfig, title) || to_tsvector('german'::regconfig, title)`,
      ),
    /**
     * Nested time buckets of the publication day (1, 8, 64, … days), set by the `posts_score`
     * trigger: search walks them newest first inside one GIN index with `search` (posts_search_idx,
     * migration 0009_posts_score), so its cost follows the matches it returns, not how common a word is.
     */
    searchBuckets: integer('search_buckets')
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
    createdAt: createdAt(),
    // Millisecond precision: keyset cursors carry it through JavaScript's Date exactly.
    publishedAt: timestamp('published_at', { withTimezone: true, precision: 3 }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Each feed is one partial index in its own order; pages continue from a (key, id) cursor.
    index('posts_new_idx')
      .on(t.publishedAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.status} = 'published'`),
    index('posts_recommended_idx')
      .on(t.score.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.status} = 'published'`),
    index('posts_author_published_idx')
      .on(t.userId, t.publishedAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.status} = 'published'`),
    index('posts_user_idx').on(t.userId, t.id),
    check('posts_published_at', sql`${t.status} = 'draft' OR ${t.publishedAt} IS NOT NULL`),
    // posts_search_idx, GIN (search, search_buckets), is created in migration 0009_posts_score.
  ],
);

/**
 * Results shared by link before (or instead of) being published: the token is the share page's
 * only key. Stopping sharing keeps the row, revoked, so its link answers "no longer shared"
 * rather than "not found"; sharing again makes a new token. One live token per generation.
 */
export const resultShares = pgTable(
  'result_shares',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    token: text('token').notNull().unique(),
    generationId: bigint('generation_id', { mode: 'number' })
      .notNull()
      .references(() => generations.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('result_shares_live_idx')
      .on(t.generationId)
      .where(sql`${t.revokedAt} IS NULL`),
  ],
);

/** Who saved which post; the identity orders the saved tab by when each was saved. */
export const postSaves = pgTable(
  'post_saves',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    postId: bigint('post_id', { mode: 'number' })
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('post_saves_user_post_unique').on(t.userId, t.postId),
    index('post_saves_user_idx').on(t.userId, t.id.desc().nullsFirst()),
    index('post_saves_post_idx').on(t.postId),
  ],
);

/** One row per person, post and day: a view counts once a day however often the page is opened. */
export const postViews = pgTable(
  'post_views',
  {
    postId: bigint('post_id', { mode: 'number' })
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.postId, t.userId, t.day] }),
    // The hourly clean-up drops days that can no longer be counted again.
    index('post_views_day_idx').on(t.day),
  ],
);

export const postReports = pgTable(
  'post_reports',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    postId: bigint('post_id', { mode: 'number' })
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    comment: text('comment').notNull().default(''),
    createdAt: createdAt(),
    /** Set by a review; unresolved reports are what hides a post. */
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('post_reports_post_user_unique').on(t.postId, t.userId)],
);

/**
 * Generations started from a post (repeat or remix), written in the generation's own creating
 * transaction: its completion pays the post's author a royalty and counts the use.
 */
export const postGenerations = pgTable(
  'post_generations',
  {
    generationId: bigint('generation_id', { mode: 'number' })
      .primaryKey()
      .references(() => generations.id, { onDelete: 'cascade' }),
    postId: bigint('post_id', { mode: 'number' })
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['repeat', 'remix'] }).notNull(),
    /** Set once, by the completion that paid the royalty and counted the use. */
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [index('post_generations_post_idx').on(t.postId)],
);

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    subscriberId: bigint('subscriber_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    authorId: bigint('author_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('subscriptions_pair_unique').on(t.subscriberId, t.authorId),
    index('subscriptions_author_idx').on(t.authorId, t.id),
    check('subscriptions_not_self', sql`${t.subscriberId} <> ${t.authorId}`),
  ],
);

/**
 * Profile counters, changed in the transaction of each subscription or publication. Kept apart
 * from `users` so they do not wake the session cache (its triggers fire on every users UPDATE).
 */
export const userCounters = pgTable(
  'user_counters',
  {
    userId: bigint('user_id', { mode: 'number' })
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    subscribersCount: integer('subscribers_count').notNull().default(0),
    subscriptionsCount: integer('subscriptions_count').notNull().default(0),
    postsCount: integer('posts_count').notNull().default(0),
  },
  (t) => [
    check(
      'user_counters_not_negative',
      sql`${t.subscribersCount} >= 0 AND ${t.subscriptionsCount} >= 0 AND ${t.postsCount} >= 0`,
    ),
  ],
);

/**
 * The job worker pools that ever started, by graphile-worker's pool id (what it writes into a
 * job's locked_by). While a pool's process lives, a session of its own holds an advisory lock on
 * (WORKER_POOL_LOCK_NAMESPACE, id); PostgreSQL drops that lock the moment the process dies, so a
 * row whose lock can be taken is a dead pool, and the jobs it had locked can run again at once.
 */
export const jobWorkerPools = pgTable('job_worker_pools', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  poolId: text('pool_id').notNull().unique(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Orders for credit packs and the unlimited package. The price, currency and what the order grants
 * are fixed by the server when it is created; the payment provider's id is unique, so a payment
 * is applied to one order only, once.
 */
export const paymentOrders = pgTable(
  'payment_orders',
  {
    uuid: uuid('uuid').primaryKey().defaultRandom(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    product: text('product').notNull(),
    /** The payment service: test, yookassa, stripe, cryptomus, stars. */
    provider: text('provider').notNull(),
    /** The way to pay the buyer picked (`yookassa_sberbank`, `stripe`, …). */
    method: text('method').notNull().default('test'),
    /** The first payment of a provider-run subscription (Stripe, Stars): renewals every this many days. */
    recurringDays: integer('recurring_days'),
    /** Stripe `sub_…`, or the first Stars payment's charge id of a Stars subscription. */
    providerSubscriptionId: text('provider_subscription_id'),
    status: text('status', { enum: ['pending', 'paid', 'failed', 'cancelled', 'refunded'] })
      .notNull()
      .default('pending'),
    /** In minor units of the currency (kopecks, cents). */
    amount: integer('amount').notNull(),
    /** ISO 4217 numeric: 643 roubles, 840 US dollars. */
    currency: integer('currency').notNull(),
    credits: integer('credits').notNull().default(0),
    unlimitedDays: integer('unlimited_days').notNull().default(0),
    /**
     * What the order pays for: a catalogue `product` (credits, unlimited), a `subscription` period
     * (`purpose_ref` is the subscription's uuid) or a `wallet_topup`.
     */
    purpose: text('purpose', { enum: ['product', 'subscription', 'wallet_topup'] })
      .notNull()
      .default('product'),
    purposeRef: text('purpose_ref'),
    /** The buyer agreed that the payment method is kept for renewals (shown on the checkout). */
    saveMethod: boolean('save_method').notNull().default(false),
    /** The provider's id of the payment method this order saved, or charged without the buyer. */
    savedMethodId: text('saved_method_id'),
    /**
     * Where the 54-FZ receipt goes (YooKassa): the account's email, or the one typed at checkout
     * when the account has none (a Telegram-only account); renewals keep the first order's.
     */
    receiptEmail: text('receipt_email'),
    /** When the buyer's bank opened a dispute (chargeback) of this payment; null: never disputed. */
    disputedAt: timestamp('disputed_at', { withTimezone: true }),
    /** The app path the buyer returns to after the checkout. */
    returnPath: text('return_path').notNull(),
    providerPaymentId: text('provider_payment_id').unique(),
    offerVersion: text('offer_version').notNull(),
    privacyVersion: text('privacy_version').notNull(),
    consentedAt: timestamp('consented_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    /** Credits of the purchase taken back on refund, and those already spent (not recoverable). */
    creditsTakenBack: integer('credits_taken_back').notNull().default(0),
    creditsUnrecovered: integer('credits_unrecovered').notNull().default(0),
    /** Minor units the provider has refunded so far (partial refunds add up; `amount`: wholly refunded). */
    amountRefunded: integer('amount_refunded').notNull().default(0),
    /**
     * A later period a provider charged by itself (Stripe invoice, Stars renewal): the uuid of the
     * subscription's first order. Each such period is an order of its own, refunded on its own.
     */
    renewalOf: uuid('renewal_of'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('payment_orders_user_idx').on(t.userId, t.createdAt),
    index('payment_orders_pending_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'pending'`),
    index('payment_orders_provider_subscription_idx').on(t.providerSubscriptionId),
  ],
);

/**
 * Every provider event applied, by the provider's own id of it: a replayed or duplicated
 * notification finds its row and changes nothing.
 */
export const paymentEvents = pgTable(
  'payment_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    orderUuid: uuid('order_uuid')
      .notNull()
      .references(() => paymentOrders.uuid, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
);

/** The price region each person chose ('ru' pays in roubles, 'intl' in dollars); none: by country. */
export const paymentRegions = pgTable('payment_regions', {
  userId: bigint('user_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  region: text('region', { enum: ['ru', 'intl'] }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * What staff did: who, which action, on what, why, and the target before and after. Append-only:
 * the code has no path that changes or deletes a row, and the `staff_audit_log_append_only`
 * trigger (migration 0026_staff_console) refuses UPDATE and DELETE in the database too. Written in
 * the same transaction as the action it records.
 */
export const staffAuditLog = pgTable(
  'staff_audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** No foreign key: the record outlives the staff member's and the target's accounts. */
    staffUserId: bigint('staff_user_id', { mode: 'number' }).notNull(),
    action: text('action').notNull(),
    targetKind: text('target_kind').notNull(),
    targetId: text('target_id').notNull(),
    reason: text('reason').notNull().default(''),
    before: jsonb('before'),
    after: jsonb('after'),
    createdAt: createdAt(),
  },
  (t) => [
    index('staff_audit_log_target_idx').on(t.targetKind, t.targetId, t.id),
    index('staff_audit_log_created_idx').on(t.createdAt),
  ],
);

/**
 * One row per person and currency they ever held money in. Every change to that wallet locks its
 * row first, so two spends can never both use the same money.
 */
export const walletAccounts = pgTable(
  'wallet_accounts',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** ISO 4217 numeric: 643 roubles, 840 US dollars. */
    currency: integer('currency').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.currency] })],
);

/**
 * The money ledger (not credits): append-only apart from an entry's status moving on (pending →
 * in/out, pending or still-frozen → cancelled). `amount` is signed, in minor units of `currency`:
 * positive money in, negative money out. Balances are sums over these rows.
 */
export const walletEntries = pgTable(
  'wallet_entries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    currency: integer('currency').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    status: text('status', { enum: ['cancelled', 'pending', 'out', 'in'] }).notNull(),
    kind: text('kind', {
      enum: [
        'pay_in',
        'purchase',
        'transfer',
        'withdrawal',
        'referral_bonus',
        'refund',
        'clawback',
        'adjustment',
      ],
    }).notNull(),
    /** Money in that cannot be spent before this time (a partner's commission during its hold). */
    frozenUntil: timestamp('frozen_until', { withTimezone: true }),
    /** When the release job noticed the hold had ended (the balance itself follows `frozen_until`). */
    releasedAt: timestamp('released_at', { withTimezone: true }),
    /** What the entry is about: an order uuid, a pay-out request, a partner's purchase. */
    ref: text('ref'),
    /** The other person of a transfer or a referral bonus. */
    counterpartyUserId: bigint('counterparty_user_id', { mode: 'number' }).references(() => users.id, {
      onDelete: 'set null',
    }),
    /** The same operation retried finds its entry here and changes nothing. */
    idempotencyKey: text('idempotency_key').notNull().unique(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('wallet_entries_user_idx').on(t.userId, t.currency, t.id),
    index('wallet_entries_frozen_idx')
      .on(t.frozenUntil)
      .where(sql`${t.frozenUntil} IS NOT NULL AND ${t.releasedAt} IS NULL`),
    check('wallet_entries_amount_not_zero', sql`${t.amount} <> 0`),
    check(
      'wallet_entries_status_matches_sign',
      sql`(${t.status} <> 'in' OR ${t.amount} > 0) AND (${t.status} <> 'out' OR ${t.amount} < 0)`,
    ),
  ],
);

/**
 * A person's premium subscription (one row per person, kept after it ends). Access runs until
 * `access_until`; while `auto_renew` holds, the saved payment method is charged from
 * `next_charge_at` on, retried after a failure, and the subscription expires when retries run out.
 */
export const premiumSubscriptions = pgTable(
  'premium_subscriptions',
  {
    uuid: uuid('uuid').primaryKey().defaultRandom(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: 'cascade' }),
    plan: text('plan').notNull(),
    status: text('status', { enum: ['pending', 'trialing', 'active', 'past_due', 'expired'] }).notNull(),
    /** The provider and the saved method renewals charge (null: nothing saved, no renewals). */
    provider: text('provider'),
    savedMethodId: text('saved_method_id'),
    /** A provider that renews by itself (Stripe `sub_…`, a Stars subscription): its id, for cancelling. */
    providerSubscriptionId: text('provider_subscription_id'),
    /** The price of each renewal, fixed when the subscription started (minor units, ISO 4217 numeric). */
    amount: integer('amount').notNull(),
    currency: integer('currency').notNull(),
    periodDays: integer('period_days').notNull(),
    accessUntil: timestamp('access_until', { withTimezone: true }),
    nextChargeAt: timestamp('next_charge_at', { withTimezone: true }),
    autoRenew: boolean('auto_renew').notNull().default(true),
    /** Renewal attempts that failed since the last successful charge. */
    failedAttempts: integer('failed_attempts').notNull().default(0),
    /** When the next renewal attempt may run (after a failure, the retry time). */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /**
     * When the provider's latest state of its own subscription (Stripe `customer.subscription.*`)
     * was made there: a state older than this, delivered late, changes nothing.
     */
    providerStateAt: timestamp('provider_state_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('premium_subscriptions_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.autoRenew} AND ${t.nextAttemptAt} IS NOT NULL`),
  ],
);

/**
 * Who has had the premium trial: one row per account (`user:<id>`) and per Telegram id
 * (`telegram:<id>`), so a second account of the same person gets no second trial.
 */
export const premiumTrialClaims = pgTable('premium_trial_claims', {
  subject: text('subject').primaryKey(),
  userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
  claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The partner programme's record of each paid purchase's shares: one row per level above the buyer
 * (`unqualified` rows pay nothing but count in that partner's team turnover). `(order_uuid, level)`
 * is unique, so a payment event delivered twice records its commissions once. A commission is
 * frozen until `frozen_until`, then available; a refund cancels a frozen one and reverses an
 * available one (`reversed_amount` of it, `refunded_amount` of the purchase).
 */
export const partnerCommissions = pgTable(
  'partner_commissions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    orderUuid: uuid('order_uuid').notNull(),
    buyerId: bigint('buyer_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    beneficiaryId: bigint('beneficiary_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    level: integer('level').notNull(),
    basisPoints: integer('basis_points').notNull(),
    /** The purchase amount, minor units of `currency`. */
    baseAmount: integer('base_amount').notNull(),
    amount: integer('amount').notNull(),
    currency: integer('currency').notNull(),
    status: text('status', {
      enum: ['frozen', 'available', 'cancelled', 'reversed', 'unqualified'],
    }).notNull(),
    frozenUntil: timestamp('frozen_until', { withTimezone: true }),
    refundedAmount: integer('refunded_amount').notNull().default(0),
    reversedAmount: integer('reversed_amount').notNull().default(0),
    paidAt: timestamp('paid_at', { withTimezone: true }).notNull(),
    releasedAt: timestamp('released_at', { withTimezone: true }),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('partner_commissions_order_level_unique').on(t.orderUuid, t.level),
    index('partner_commissions_beneficiary_idx').on(t.beneficiaryId, t.buyerId),
    index('partner_commissions_due_idx')
      .on(t.frozenUntil)
      .where(sql`${t.status} = 'frozen'`),
    check(
      'partner_commissions_amounts',
      sql`${t.amount} >= 0 AND ${t.reversedAmount} BETWEEN 0 AND ${t.amount}`,
    ),
  ],
);

/**
 * Per partner, month (UTC, first day) and currency: commission income net of reversals, team
 * turnover net of refunds, and the first line's part of it. Kept in the transaction of each
 * commission or refund, so statistics and the chart read a handful of rows at any team size.
 */
export const partnerMonthly = pgTable(
  'partner_monthly',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    month: date('month', { mode: 'string' }).notNull(),
    currency: integer('currency').notNull(),
    income: bigint('income', { mode: 'number' }).notNull().default(0),
    turnover: bigint('turnover', { mode: 'number' }).notNull().default(0),
    firstLineTurnover: bigint('first_line_turnover', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.month, t.currency] }),
    index('partner_monthly_income_idx').on(t.month, t.currency, t.income),
  ],
);

/**
 * The tops list, recomputed by a scheduled job: rank within (period, metric, currency), so serving
 * GET /api/linear/top/ reads at most a page of rows whatever the number of users.
 */
export const partnerTops = pgTable(
  'partner_tops',
  {
    period: text('period', { enum: ['month', 'all'] }).notNull(),
    metric: text('metric', { enum: ['income', 'team'] }).notNull(),
    currency: integer('currency').notNull(),
    rank: integer('rank').notNull(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    value: bigint('value', { mode: 'number' }).notNull(),
    computedAt: timestamp('computed_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.period, t.metric, t.currency, t.rank] })],
);

/** A partner's own programme settings: whether their downline may see how to contact them. */
export const partnerProfiles = pgTable('partner_profiles', {
  userId: bigint('user_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  showContact: boolean('show_contact').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A request to pay wallet money out to the partner's requisites. Its money is reserved in the
 * wallet (a pending entry under `payout:<uuid>`) from the request until an admin pays it (the
 * entry settles: out) or rejects it (the entry is cancelled: the money is available again).
 */
export const payoutRequests = pgTable(
  'payout_requests',
  {
    uuid: uuid('uuid').primaryKey().defaultRandom(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    currency: integer('currency').notNull(),
    amount: integer('amount').notNull(),
    method: text('method', { enum: ['card', 'sbp', 'crypto'] }).notNull(),
    requisites: jsonb('requisites').$type<PayoutRequisites>().notNull(),
    status: text('status', { enum: ['pending', 'paid', 'rejected'] })
      .notNull()
      .default('pending'),
    reason: text('reason'),
    /** The bank's or network's reference of the transfer, given by the admin who marked it paid. */
    reference: text('reference'),
    /** The client's key for this request: a double submit creates one request. */
    clientKey: text('client_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('payout_requests_client_key_unique').on(t.userId, t.clientKey),
    index('payout_requests_status_idx').on(t.status, t.createdAt),
    index('payout_requests_user_idx').on(t.userId, t.createdAt),
    check('payout_requests_amount_positive', sql`${t.amount} > 0`),
  ],
);

/** The requisites a partner last paid out to, offered again next time. */
export const payoutRequisites = pgTable('payout_requisites', {
  userId: bigint('user_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  requisites: jsonb('requisites').$type<PayoutRequisites>().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/**
 * Per partner and level of their team: how many people are on it and how many of them have a
 * purchase not wholly refunded. Kept as people join (the new-partner job) and as commissions are
 * recorded and reversed, so statistics, qualification and the level counts read a few rows
 * whatever the size of the team.
 */
export const partnerLevelCounts = pgTable(
  'partner_level_counts',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    level: integer('level').notNull(),
    members: integer('members').notNull().default(0),
    paying: integer('paying').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.level] })],
);

/**
 * The catalogue and prices as the staff console set them: one row per change, the newest in force.
 * `overrides` holds only what differs from the server's configuration (mode prices and free-tier
 * values by key, the product list and the plan whole), so values nobody changed keep following the
 * environment. A trigger NOTIFYs `mirra_pricing_changes` on insert (migration 0031_pricing_settings)
 * and every process drops its cached copy.
 */
export const pricingSettings = pgTable('pricing_settings', {
  version: integer('version').primaryKey(),
  overrides: jsonb('overrides').notNull(),
  /** No foreign key: the history outlives the staff member's account, as the audit log does. */
  staffUserId: bigint('staff_user_id', { mode: 'number' }).notNull(),
  createdAt: createdAt(),
});
