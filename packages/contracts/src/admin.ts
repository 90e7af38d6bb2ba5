import { z } from 'zod';
import { ZCreditEntry } from './credits.js';
import { ZGenerationMode, ZGenerationStatus } from './generations.js';
import { ZPaymentOrderStatus, ZPaymentPurpose } from './payments.js';
import { ZPost, ZReportReason } from './posts.js';
import { ZAdminTakedown, ZTakedownDeadlineState } from './takedowns.js';
import { ZWalletBalance, ZWalletEntry } from './wallet.js';
import { ACCOUNT_POST_CHOICES } from './users.js';

/** Staff levels: a moderator reviews reports; an admin also manages people, credits and generations. */
export const STAFF_ROLES = ['moderator', 'admin'] as const;
export const ZStaffRole = z.enum(STAFF_ROLES);
export type TStaffRole = z.infer<typeof ZStaffRole>;

export const STAFF_REASON_MAX_LENGTH = 500;
/** The most credits one staff grant or take may move. */
export const STAFF_CREDIT_CHANGE_MAX = 100_000;

/** Why staff did something: kept in the audit log with the change. */
const staffReason = z
  .string({ error: 'Say why.' })
  .trim()
  .min(1, { error: 'Say why.' })
  .max(STAFF_REASON_MAX_LENGTH, { error: `At most ${STAFF_REASON_MAX_LENGTH} characters.` });

export const ZStaffMe = z.object({ role: ZStaffRole });

export const ZStaffReasonBody = z.object({ reason: staffReason });

export const ZAdminPostParams = z.object({ uuid: z.uuid({ error: 'Not found.' }) });

export const ZAdminReport = z.object({
  reason: ZReportReason,
  comment: z.string(),
  reporter_uuid: z.uuid(),
  created_at: z.iso.datetime(),
});

/** A post in the review queue: hidden by reports, or published with open reports. */
export type TAdminReport = z.infer<typeof ZAdminReport>;

export const ZAdminReportedPost = z.object({
  post: ZPost,
  author_email: z.string().nullable(),
  author_banned: z.boolean(),
  reports: z.array(ZAdminReport),
  /** True when someone says the picture is of them, shared without consent (first in the queue). */
  not_consented: z.boolean(),
  /** Open takedown requests, signed in or not, oldest first. */
  takedowns: z.array(ZAdminTakedown),
  /** The earliest deadline of its open urgent takedowns (these come first, soonest first); null without. */
  deadline_at: z.iso.datetime().nullable(),
  deadline_state: ZTakedownDeadlineState.nullable(),
});
export const ZAdminReportQueue = z.object({ results: z.array(ZAdminReportedPost) });

export const ZAdminUserSearchQuery = z.object({
  q: z.string().trim().min(1, { error: 'Type an email, a Telegram id or a uuid.' }).max(320),
});

export const ZAdminUserSummary = z.object({
  uuid: z.uuid(),
  email: z.string().nullable(),
  first_name: z.string(),
  last_name: z.string(),
  username: z.string(),
  telegram_id: z.number().int().nullable(),
  telegram_username: z.string().nullable(),
  staff_role: ZStaffRole.nullable(),
  banned: z.boolean(),
  date_joined: z.iso.datetime(),
});
export const ZAdminUserList = z.object({ results: z.array(ZAdminUserSummary) });

export const ZAdminUserParams = z.object({ uuid: z.uuid({ error: 'Not found.' }) });

export const ZAdminModelSummary = z.object({
  uuid: z.uuid(),
  name: z.string(),
  status: ZGenerationStatus,
  photos: z.number().int(),
  created_at: z.iso.datetime(),
});

export const ZAdminGeneration = z.object({
  uuid: z.uuid(),
  user_uuid: z.uuid(),
  mode: ZGenerationMode,
  status: ZGenerationStatus,
  prompt: z.string(),
  cost: z.number().int(),
  engine: z.string(),
  provider: z.string().nullable(),
  provider_job_id: z.string().nullable(),
  error_code: z.string().nullable(),
  error_detail: z.string().nullable(),
  error_reason: z.string().nullable(),
  refunded: z.boolean(),
  /**
   * A face result's likeness to its digital model's photos (0–1; 0 when no face was found), null
   * for results not checked.
   */
  likeness: z.number().min(0).max(1).nullable(),
  created_at: z.iso.datetime(),
  finished_at: z.iso.datetime().nullable(),
});
export type TAdminGeneration = z.infer<typeof ZAdminGeneration>;
export const ZAdminGenerationList = z.object({ results: z.array(ZAdminGeneration) });
/** Failed generations, and the engines each mode can be retried on (configured and serving it). */
export const ZAdminFailedGenerationList = z.object({
  results: z.array(ZAdminGeneration),
  engines: z.array(z.object({ mode: ZGenerationMode, engines: z.array(z.string()) })),
});
export type TAdminFailedGenerationList = z.infer<typeof ZAdminFailedGenerationList>;

export const ZAdminAuditEntry = z.object({
  id: z.number().int(),
  staff_uuid: z.uuid().nullable(),
  action: z.string(),
  target_kind: z.string(),
  target_id: z.string(),
  reason: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  created_at: z.iso.datetime(),
});

/** Everything staff see of one person. */
export const ZAdminUserDetail = z.object({
  user: ZAdminUserSummary,
  language: z.string().nullable(),
  last_login: z.iso.datetime().nullable(),
  balance: z.number().int(),
  models: z.array(ZAdminModelSummary),
  generations: z.array(ZAdminGeneration),
  credit_entries: z.array(ZCreditEntry),
  audit: z.array(ZAdminAuditEntry),
});

export const ZAdminCreditChangeBody = z.object({
  /** Positive grants, negative takes. */
  delta: z
    .number({ error: 'Enter a whole number of credits.' })
    .int({ error: 'Enter a whole number of credits.' })
    .min(-STAFF_CREDIT_CHANGE_MAX)
    .max(STAFF_CREDIT_CHANGE_MAX)
    .refine((value) => value !== 0, { error: 'Enter a number other than zero.' }),
  reason: staffReason,
  /** The same key again is the same change: applied once (a double click, a retried request). */
  idempotency_key: z.string().min(8).max(100),
});
export const ZAdminCreditChange = z.object({ applied: z.boolean(), balance: z.number().int() });

export const ZAdminModelParams = z.object({ uuid: z.uuid({ error: 'Not found.' }) });
export const ZAdminGenerationParams = z.object({ uuid: z.uuid({ error: 'Not found.' }) });
/**
 * Staff run a failed generation again: on `engine` only, or (null) on the mode's engines in order.
 * Nothing is charged: the person paid once when they asked for it.
 */
export const ZAdminRetryBody = z.object({
  reason: staffReason,
  engine: z.string().trim().min(1).max(40).nullable().default(null),
});
export const ZAdminRefund = z.object({ refunded: z.boolean(), balance: z.number().int() });

export type TAdminReportedPost = z.infer<typeof ZAdminReportedPost>;
export type TAdminUserSummary = z.infer<typeof ZAdminUserSummary>;
export type TAdminUserDetail = z.infer<typeof ZAdminUserDetail>;
export type TAdminAuditEntry = z.infer<typeof ZAdminAuditEntry>;
export type TAdminModelSummary = z.infer<typeof ZAdminModelSummary>;

/** How many days the console's charts cover, ending today (UTC). */
export const ADMIN_DASHBOARD_DAYS = 30;

const count = z.number().int().nonnegative();

/** Money in minor units (kopecks, cents) of an ISO 4217 numeric currency, from one provider. */
export const ZAdminRevenue = z.object({
  provider: z.string(),
  currency: z.number().int(),
  /** Paid today (UTC), whether or not refunded since. */
  today: count,
  /** Paid over the last ADMIN_DASHBOARD_DAYS days, today included. */
  last_30d: count,
  /** Refunded over the same days. */
  refunded_30d: count,
});

/** What a margin row counts: a generation mode, or the training of digital models. */
export const ZAdminWorkKind = z.union([ZGenerationMode, z.literal('training')]);
export type TAdminWorkKind = z.infer<typeof ZAdminWorkKind>;

/** Credits charged and what the providers billed for one mode on one engine over one window. */
export const ZAdminMarginRow = z.object({
  mode: ZAdminWorkKind,
  engine: z.string(),
  count,
  /**
   * What the providers billed: generations' `provider_cost_usd`, trainings' cost kept with each
   * trained LoRA (refunded work included: the provider was paid).
   */
  cost_usd: z.number().nonnegative(),
  /** Credits charged and kept (refunded generations give theirs back, so they count 0). */
  credits: count,
  /** credits × credit_price_usd; null while no US-dollar order sold credits in the window. */
  value_usd: z.number().nonnegative().nullable(),
  /** value_usd − cost_usd; null with value_usd. */
  margin_usd: z.number().nullable(),
});
export type TAdminMarginRow = z.infer<typeof ZAdminMarginRow>;

/** The console's home: what a person running Mirra checks first, all counted from the database. */
export const ZAdminDashboard = z.object({
  generated_at: z.iso.datetime(),
  users: z.object({ total: count, new_today: count, new_7d: count }),
  generations_today: z.object({
    by_status: z.array(z.object({ status: ZGenerationStatus, count })),
    by_engine: z.array(z.object({ engine: z.string(), count, failed: count })),
    by_mode: z.array(z.object({ mode: ZGenerationMode, count })),
    /** Finished today (completed, error or failed). */
    finished: count,
    /** Of those, ended with ERROR or FAILED. */
    failed: count,
    /** failed / finished; null before anything finished today. */
    failure_rate: z.number().min(0).max(1).nullable(),
  }),
  queue: z.object({
    /** Jobs waiting for a worker (not locked), due now or later. */
    depth: count,
    /** How long the oldest due job has waited; null when none waits. */
    oldest_age_seconds: z.number().int().nonnegative().nullable(),
  }),
  revenue: z.array(ZAdminRevenue),
  /**
   * Provider cost against the value of the credits charged, by mode and engine. A credit is valued
   * at what people paid for credits: US-dollar orders paid over the last ADMIN_DASHBOARD_DAYS days
   * that sold credits, their amount divided by the credits they sold (other currencies are not
   * converted). Digital-model trainings are a row of their own (`training`), counted on the day
   * their training started.
   */
  margin: z.object({
    credit_price_usd: z.number().nonnegative().nullable(),
    today: z.array(ZAdminMarginRow),
    last_30d: z.array(ZAdminMarginRow),
  }),
  /** Distinct people who created a generation or signed in (their last sign-in) in the window. */
  active_users: z.object({ today: count, last_7d: count }),
  /** Today's generations with an engine's failure reason, most frequent first (top 10). */
  failure_reasons_today: z.array(z.object({ reason: z.string(), count })),
  /**
   * Face pictures (modes with a digital model) finished over the last ADMIN_DASHBOARD_DAYS days
   * whose likeness was checked, by the engine that made them: how many, how many were refunded for
   * too little likeness after their retry, and that share (null for none checked).
   */
  likeness_refunds: z.array(
    z.object({
      engine: z.string(),
      checked: count,
      refunded: count,
      share: z.number().min(0).max(1).nullable(),
    }),
  ),
  payouts_pending: z.array(z.object({ currency: z.number().int(), count, amount: count })),
  /** One value per day, oldest first, for ADMIN_DASHBOARD_DAYS days ending today (UTC). */
  series: z.object({
    days: z.array(z.iso.date()),
    signups: z.array(count),
    generations: z.array(count),
    failed: z.array(count),
    /** Paid per day, per currency (all providers). */
    revenue: z.array(z.object({ currency: z.number().int(), amounts: z.array(count) })),
  }),
});
export type TAdminDashboard = z.infer<typeof ZAdminDashboard>;

/** A person's order as staff see it: who took the money, how much, and where it stands. */
export const ZAdminPaymentOrder = z.object({
  uuid: z.uuid(),
  product: z.string(),
  purpose: ZPaymentPurpose,
  provider: z.string(),
  method: z.string(),
  status: ZPaymentOrderStatus,
  amount: z.number().int(),
  currency: z.number().int(),
  credits: z.number().int(),
  provider_payment_id: z.string().nullable(),
  created_at: z.iso.datetime(),
  paid_at: z.iso.datetime().nullable(),
  refunded_at: z.iso.datetime().nullable(),
  /** Given back so far, in the order's minor units (a partial refund leaves the order paid). */
  amount_refunded: z.number().int().nonnegative(),
  /** Paid and not refunded: staff may ask the provider to give the money back. */
  refundable: z.boolean(),
});
export type TAdminPaymentOrder = z.infer<typeof ZAdminPaymentOrder>;

/**
 * The payment search: one term matched against an order's uuid, the provider's payment id, and the
 * buyer's email (exact or prefix), Telegram id or uuid; none given is every order. Newest first.
 */
export const ZAdminPaymentSearchQuery = z.object({
  q: z.string().trim().max(320).optional(),
  /** The last order's uuid on the page before. */
  cursor: z.string().max(64).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(30),
});
/** An order found by the payment search, with whose it is. */
export const ZAdminPaymentSearchResult = z.object({
  order: ZAdminPaymentOrder,
  buyer: z.object({
    uuid: z.uuid(),
    email: z.string().nullable(),
    telegram_id: z.number().int().nullable(),
  }),
});
export type TAdminPaymentSearchResult = z.infer<typeof ZAdminPaymentSearchResult>;
export const ZAdminPaymentSearchPage = z.object({
  results: z.array(ZAdminPaymentSearchResult),
  next: z.string().nullable(),
});
export type TAdminPaymentSearchPage = z.infer<typeof ZAdminPaymentSearchPage>;

export const ZAdminSubscription = z.object({
  uuid: z.uuid(),
  plan: z.string(),
  status: z.string(),
  provider: z.string().nullable(),
  amount: z.number().int(),
  currency: z.number().int(),
  period_days: z.number().int(),
  access_until: z.iso.datetime().nullable(),
  next_charge_at: z.iso.datetime().nullable(),
  auto_renew: z.boolean(),
  failed_attempts: z.number().int(),
  cancelled_at: z.iso.datetime().nullable(),
  created_at: z.iso.datetime(),
});

export type TAdminSubscription = z.infer<typeof ZAdminSubscription>;

/** A person's money: their orders, wallet balances and latest wallet entries, and premium subscription. */
export const ZAdminUserMoney = z.object({
  orders: z.array(ZAdminPaymentOrder),
  wallet: z.object({ balances: z.array(ZWalletBalance), entries: z.array(ZWalletEntry) }),
  subscription: ZAdminSubscription.nullable(),
});
export type TAdminUserMoney = z.infer<typeof ZAdminUserMoney>;

export const ZAdminOrderParams = z.object({ uuid: z.uuid({ error: 'Not found.' }) });
/** What a staff refund did: `refunded` now (wallet payments), or asked of the provider (`requested`). */
export const ZAdminOrderRefund = z.object({ outcome: z.enum(['refunded', 'requested']) });

/** A partner's pay-out request waiting for an admin, with where the money goes (in full: staff send it). */
export const ZAdminPayout = z.object({
  uuid: z.uuid(),
  user_uuid: z.uuid(),
  user_email: z.string().nullable(),
  amount: z.number().int(),
  currency: z.number().int(),
  method: z.enum(['card', 'sbp', 'crypto']),
  requisites: z.record(z.string(), z.string()),
  status: z.enum(['pending', 'paid', 'rejected']),
  reason: z.string().nullable(),
  /** The transfer's reference, kept when the pay-out was marked paid. */
  reference: z.string().nullable(),
  created_at: z.iso.datetime(),
});
export type TAdminPayout = z.infer<typeof ZAdminPayout>;
export const ZAdminPayoutList = z.object({ results: z.array(ZAdminPayout) });
export const ZAdminPayoutParams = z.object({ uuid: z.uuid({ error: 'Not found.' }) });
/** Marking a pay-out paid: why, and the bank's or network's reference of the transfer. */
export const ZAdminPayoutApproveBody = z.object({
  reason: staffReason,
  reference: z.string().trim().max(200).default(''),
});

/** Filters of the audit log; each one narrows, none given is everything, newest first. */
export const ZAdminAuditQuery = z.object({
  /** A staff member's uuid. */
  staff: z.uuid({ error: "Enter a staff member's uuid." }).optional(),
  /** An action, or its start (`payout.` is every pay-out decision). */
  action: z.string().trim().max(60).optional(),
  /** A target's id (a person's, a post's, a generation's, an order's, a pay-out's uuid). */
  target: z.string().trim().max(100).optional(),
  /** From this day (UTC), inclusive. */
  from: z.iso.date({ error: 'Enter a date.' }).optional(),
  /** Up to this day (UTC), inclusive. */
  to: z.iso.date({ error: 'Enter a date.' }).optional(),
  cursor: z.string().max(32).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export const ZAdminAuditPage = z.object({ results: z.array(ZAdminAuditEntry), next: z.string().nullable() });
export type TAdminAuditPage = z.infer<typeof ZAdminAuditPage>;

/**
 * The service's health for the console, read from the same probes as `/readyz` and the same
 * figures as `/metrics` (webhook errors are this API process's, since it started).
 */
export const ZAdminHealth = z.object({
  status: z.enum(['ok', 'unavailable']),
  checks: z.record(z.enum(['database', 'queue', 'storage', 'engines']), z.enum(['ok', 'failed'])),
  failed: z.array(z.string()),
  providers: z.record(z.string(), z.enum(['ok', 'down', 'configured'])),
  /** Engines per generation mode, in the order they are tried. */
  engines: z.record(z.string(), z.array(z.string())),
  queue: z.object({
    /** Jobs waiting to be picked up. */
    depth: z.number().int(),
    /** Seconds the oldest waiting job has been due; null with none waiting. */
    oldest_seconds: z.number().nullable(),
  }),
  webhook_errors: z.array(z.object({ source: z.string(), reason: z.string(), count: z.number().int() })),
  storage: z.object({ kind: z.enum(['local', 's3']) }),
  checked_at: z.iso.datetime(),
});
export type TAdminHealth = z.infer<typeof ZAdminHealth>;

/** Staff deleting an account on the person's request: why, and what becomes of the person's posts. */
export const ZAdminDeleteUserBody = z.object({
  reason: staffReason,
  posts: z.enum(ACCOUNT_POST_CHOICES),
});
