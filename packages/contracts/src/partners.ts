import { z } from 'zod';
import { ZWalletBalance } from './wallet.js';

/** A currency of partner money (ISO 4217 numeric); the wallet's default when left out. */
const ZCurrencyQuery = z.coerce.number().int().optional();

/** The upline sponsor: who brought me, and how to reach them if they allow it. */
export const ZPartnerCurator = z.object({
  uuid: z.uuid(),
  name: z.string(),
  username: z.string(),
  avatar_url: z.string().nullable(),
  /** `https://t.me/<username>` or `mailto:<email>`; null unless the curator allows contact. */
  contact_url: z.string().nullable(),
});
export type TPartnerCurator = z.infer<typeof ZPartnerCurator>;

export const ZPartnerLevel = z.object({
  level: z.number().int(),
  /** The level's share of each paid purchase, in percent. */
  percent: z.number(),
  /** Paying first-line partners the level needs before it pays. */
  min_paying_first_line: z.number().int(),
  unlocked: z.boolean(),
  /** Paying first-line partners still missing to unlock it. */
  missing: z.number().int(),
  /** People on this level of my team, and how many of them have paid. */
  team: z.number().int(),
  team_paid: z.number().int(),
});

/** GET /api/partners/me/: my place in the programme. */
export const ZPartnerSummary = z.object({
  /** The web reflink (also the user's `reflink`). */
  reflink: z.string(),
  /** The Mini App link with my `ref_` start parameter; null when no bot is configured. */
  reflink_telegram: z.string().nullable(),
  referral_code: z.string(),
  curator: ZPartnerCurator.nullable(),
  levels: z.array(ZPartnerLevel),
  /** Days a commission stays frozen before it can be spent or paid out. */
  hold_days: z.number().int(),
  /** Whether my own downline may see how to contact me. */
  show_contact: z.boolean(),
  paying_first_line: z.number().int(),
  /**
   * The calculator's starting average purchase per wallet currency (minor units, keyed by currency
   * id): the premium plan's price in force, the purchase most partners' people make.
   */
  calculator_average: z.record(z.string(), z.number().int()),
});
export type TPartnerSummary = z.infer<typeof ZPartnerSummary>;

export const ZPartnerSettingsBody = z.object({ show_contact: z.boolean() });

export const ZPartnerStatisticsQuery = z.object({ currency: ZCurrencyQuery });

/** One month of the chart (UTC): my commission income and my team's turnover, minor units. */
export const ZPartnerMonth = z.object({
  month: z.string().regex(/^\d{4}-\d{2}$/),
  income: z.number().int(),
  turnover: z.number().int(),
});

/**
 * GET /api/partners/statistics/: money in minor units of `currency`, net of refunds.
 * - referals: people who joined through my link (my first line);
 * - payedPartners: of them, those with a paid purchase that was not wholly refunded;
 * - payouts: money paid out to my requisites;
 * - turnoverMonth / turnoverAll: purchases of my whole team (every paying level) this month / ever;
 * - firstLineTurnover: the part of turnoverAll my first line bought;
 * - income: commissions earned (frozen ones included, reversals subtracted).
 */
export const ZPartnerStatistics = z.object({
  currency: z.number().int(),
  payedPartners: z.number().int(),
  payouts: z.number().int(),
  referals: z.number().int(),
  turnoverMonth: z.number().int(),
  turnoverAll: z.number().int(),
  firstLineTurnover: z.number().int(),
  income: z.number().int(),
  /** The last 12 months, oldest first. */
  months: z.array(ZPartnerMonth),
  /** Currencies I have any partner money in. */
  currencies: z.array(z.number().int()),
});
export type TPartnerStatistics = z.infer<typeof ZPartnerStatistics>;

export const ZTeamQuery = z.object({
  level: z.coerce.number().int().min(1).max(10).optional(),
  /** `true`: only partners who paid; `false`: only those who have not. */
  paid: z.enum(['true', 'false']).optional(),
  search: z.string().trim().max(100).optional(),
  currency: ZCurrencyQuery,
  cursor: z.string().max(64).optional(),
});

export const ZTeamMember = z.object({
  uuid: z.uuid(),
  level: z.number().int(),
  name: z.string(),
  username: z.string(),
  avatar_url: z.string().nullable(),
  date_joined: z.iso.datetime(),
  paid: z.boolean(),
  /** Their purchases net of refunds, minor units of the query's currency. */
  turnover: z.number().int(),
});
export type TTeamMember = z.infer<typeof ZTeamMember>;

export const ZTeamPage = z.object({
  results: z.array(ZTeamMember),
  next: z.string().nullable(),
  currency: z.number().int(),
});
export type TTeamPage = z.infer<typeof ZTeamPage>;

export const TOP_PERIODS = ['month', 'all'] as const;
export const TOP_METRICS = ['income', 'team'] as const;

export const ZTopsQuery = z.object({
  period: z.enum(TOP_PERIODS).default('month'),
  /** income: commissions earned; team: people brought (first line). */
  by: z.enum(TOP_METRICS).default('income'),
  currency: ZCurrencyQuery,
});

export const ZTopEntry = z.object({
  rank: z.number().int(),
  uuid: z.uuid(),
  name: z.string(),
  username: z.string(),
  avatar_url: z.string().nullable(),
  /** Minor units of `currency` for income; people for team. */
  value: z.number().int(),
  is_me: z.boolean(),
});

/** GET /api/linear/top/: the tops list, recomputed every few minutes. */
export const ZTops = z.object({
  period: z.enum(TOP_PERIODS),
  by: z.enum(TOP_METRICS),
  currency: z.number().int(),
  results: z.array(ZTopEntry),
  /** When the list was last computed; null before the first run. */
  computed_at: z.iso.datetime().nullable(),
});
export type TTops = z.infer<typeof ZTops>;

/** The calculator's bounds: people per level (seven digits) and the average purchase (minor units). */
export const CALCULATOR_MAX_PARTNERS = 9_999_999;
export const CALCULATOR_MAX_AVERAGE = 100_000_000;

export const ZCalculatorQuery = z.object({
  /** Expected paying partners per level, comma-separated (`5,20,100`), each 0…CALCULATOR_MAX_PARTNERS. */
  partners: z
    .string()
    .max(100)
    .regex(/^\d{1,7}(,\d{1,7}){0,9}$/, 'Whole numbers separated by commas.'),
  /** Average monthly purchase per partner, minor units. */
  average: z.coerce.number().int().min(0).max(CALCULATOR_MAX_AVERAGE),
});

export const ZCalculatorResult = z.object({
  levels: z.array(z.object({ level: z.number().int(), income: z.number().int(), unlocked: z.boolean() })),
  /** Monthly income, minor units; each month's earnings are frozen for `hold_days` first. */
  total: z.number().int(),
  hold_days: z.number().int(),
});

export const PAYOUT_METHODS = ['card', 'sbp', 'crypto'] as const;
export const PAYOUT_NETWORKS = ['TRC20', 'ERC20', 'BEP20', 'TON', 'BTC'] as const;

/** What the server answers for an amount below the currency's minimum (minor units). */
export const payoutMinimumMessage = (minimum: number) =>
  `The minimum pay-out is ${(minimum / 100).toFixed(2)}.`;

/** The minimum (minor units) a `payoutMinimumMessage` names; null for any other message. */
export function readPayoutMinimum(message: string): number | null {
  const match = /^The minimum pay-out is (\d+\.\d{2})\.$/.exec(message);
  return match ? Math.round(Number(match[1]) * 100) : null;
}

/** What the server answers for an amount that is not a whole, positive number of minor units. */
export const PAYOUT_AMOUNT_INVALID = 'Enter an amount above zero with at most two decimals.';

/** POST /api/wallet/payouts/: requisites by method, the holder's name, and the amount. */
export const ZPayoutBody = z.object({
  currency: z.coerce.number().int(),
  /** Minor units (a safe integer above zero); anything else answers PAYOUT_AMOUNT_INVALID. */
  amount: z
    .number({ error: PAYOUT_AMOUNT_INVALID })
    .int({ error: PAYOUT_AMOUNT_INVALID })
    .positive({ error: PAYOUT_AMOUNT_INVALID }),
  method: z.enum(PAYOUT_METHODS),
  card: z.string().max(40).nullish(),
  phone: z.string().max(40).nullish(),
  bank: z.string().max(80).nullish(),
  network: z.string().max(10).nullish(),
  address: z.string().max(120).nullish(),
  holder: z.string().max(120),
  /** A key the client makes per form: submitting twice creates one request. */
  client_key: z.string().min(8).max(64),
});

export const ZPayout = z.object({
  uuid: z.uuid(),
  currency: z.number().int(),
  amount: z.number().int(),
  method: z.enum(PAYOUT_METHODS),
  /** Masked: a card's last four digits, a phone's last four, an address's ends. */
  requisites: z.string(),
  status: z.enum(['pending', 'paid', 'rejected']),
  reason: z.string().nullable(),
  /** The bank's or network's reference of the transfer, once paid (null when none was given). */
  reference: z.string().nullable(),
  created_at: z.iso.datetime(),
  decided_at: z.iso.datetime().nullable(),
});
export type TPayout = z.infer<typeof ZPayout>;

export const ZSavedRequisites = z
  .object({
    method: z.enum(PAYOUT_METHODS),
    card: z.string().optional(),
    phone: z.string().optional(),
    bank: z.string().optional(),
    network: z.string().optional(),
    address: z.string().optional(),
    holder: z.string(),
  })
  .nullable();

export const ZPayouts = z.object({
  results: z.array(ZPayout),
  /** My wallet now, per currency (what can be paid out, what is still frozen). */
  balances: z.array(ZWalletBalance),
  saved: ZSavedRequisites,
  /** The smallest pay-out per currency (minor units), keyed by currency id. */
  minimum: z.record(z.string(), z.number().int()),
});
export type TPayouts = z.infer<typeof ZPayouts>;

export const ZCreditsTransferBody = z.object({
  currency: z.coerce.number().int(),
  credits: z.number().int().min(1).max(1_000_000),
  client_key: z.string().min(8).max(64),
});
export const ZCreditsTransfer = z.object({
  credits: z.number().int(),
  /** What they cost, minor units of `currency`. */
  cost: z.number().int(),
  currency: z.number().int(),
  /** The credit balance afterwards. */
  balance: z.number().int(),
});

export const ZUserTransferBody = z.object({
  currency: z.coerce.number().int(),
  amount: z.number().int().positive(),
  /** The recipient's profile uuid. */
  to: z.uuid(),
  client_key: z.string().min(8).max(64),
});
export const ZUserTransfer = z.object({
  amount: z.number().int(),
  currency: z.number().int(),
  to: z.object({ uuid: z.uuid(), name: z.string() }),
});

/** Credits one major unit of each wallet currency buys, keyed by currency id. */
export const ZCreditRates = z.object({ rates: z.record(z.string(), z.number()) });

export type TCalculatorResult = z.infer<typeof ZCalculatorResult>;
export type TPayoutBody = z.input<typeof ZPayoutBody>;
export type TSavedRequisites = z.infer<typeof ZSavedRequisites>;
