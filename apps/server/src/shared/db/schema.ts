import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
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
    /** True when the user has a trained digital model (the spec's `lora`). */
    hasLora: boolean('has_lora').notNull().default(false),
    telegramId: bigint('telegram_id', { mode: 'number' }).unique(),
    telegramUsername: text('telegram_username'),
    telegramPhotoUrl: text('telegram_photo_url'),
    telegramAllowsWrite: boolean('telegram_allows_write').notNull().default(false),
    googleSub: text('google_sub').unique(),
    lastLogin: timestamp('last_login', { withTimezone: true }),
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
