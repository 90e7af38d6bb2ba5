import { STAFF_ROLES } from '@mirra/contracts';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';

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
    staffRole: text('staff_role', { enum: STAFF_ROLES }),
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
