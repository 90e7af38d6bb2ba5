import type { z } from 'zod';
import type {
  TAdminAuditEntry,
  TAdminAuditPage,
  TAdminDashboard,
  TAdminFailedGenerationList,
  TAdminGeneration,
  TAdminReportedPost,
  TAdminUserDetail,
  TAdminUserMoney,
  TAdminPayout,
  TAdminPaymentSearchPage,
  TAdminUserSummary,
  TPricingSettings,
  TStaffRole,
  ZAdminAuditQuery,
  ZAdminCreditChangeBody,
  ZAdminPaymentSearchQuery,
} from '@mirra/contracts';
import type { AdminDeps } from './admin.deps.js';
import type { DbOrTx } from '../../shared/db/client.js';
import { AppError } from '../../shared/errors.js';
import { readIdCursorPage } from '../../shared/id-cursor-paging.js';
import type { RecordStaffChange } from '../../shared/staff-audit.js';
import { revokeUserSessions } from '../auth/index.js';
import { applyCreditChange, getCreditBalance, getCreditHistory, lockCredits } from '../credits/index.js';
import {
  listFailedGenerations,
  listGenerationsForStaff,
  refundGenerationByStaff,
  retryEnginesByMode,
  retryGenerationByStaff,
} from '../generations/index.js';
import { deleteModelByStaff, listModelsForStaff } from '../models/index.js';
import {
  approvePayout as settlePayout,
  listPendingPayouts,
  rejectPayout as refusePayout,
} from '../partners/index.js';
import {
  findOrderOwner,
  listOrdersForStaff,
  refundOrder as refundPaymentOrder,
  searchOrdersForStaff,
} from '../payments/index.js';
import { changePricing } from '../pricing/index.js';
import { findSubscriptionForStaff } from '../subscriptions/index.js';
import { getWalletBalances, listRecentWalletEntries } from '../wallet/index.js';
import { listReportedPosts } from '../posts/index.js';
import { deadlineState, rejectReportsOfPost, removeReportedPostForGood } from '../takedowns/index.js';
import { deleteStoredFilesNow } from '../../shared/storage/file-deletion.js';
import { findUsersByRefs, lockUser, searchUsersForStaff, updateUser, type UserRow } from '../users/index.js';
import { adminDashboardRepository } from './admin-dashboard.repository.js';
import {
  creditPriceUsd,
  dailySeries,
  dashboardWindows,
  likenessRefundShares,
  marginTables,
  summariseGenerations,
} from './admin-dashboard.models.js';
import { staffCreditKey, toUserSummary } from './admin.models.js';
import { adminRepository, type StaffAuditRow } from './admin.repository.js';

type CreditChangeBody = z.output<typeof ZAdminCreditChangeBody>;
type AuditQuery = z.output<typeof ZAdminAuditQuery>;
type PaymentSearchQuery = z.output<typeof ZAdminPaymentSearchQuery>;

const userNotFound = () => new AppError({ code: 'users.not_found', detail: 'Not found.' });

/** The audit log's name for a change of the catalogue and prices, and its (only) target. */
export const PRICING_AUDIT = {
  action: 'pricing.change',
  target: { kind: 'pricing', id: 'catalogue' },
} as const;

/** The catalogue and prices an admin sets, audited with the reason in the change's transaction. */
export function changePricingByStaff(
  deps: AdminDeps,
  staff: UserRow,
  wanted: TPricingSettings,
  reason: string,
) {
  return changePricing(
    deps,
    staff.id,
    wanted,
    auditOf(staff, PRICING_AUDIT.action, PRICING_AUDIT.target, reason),
  );
}

/** An audit writer for one action on one target, bound to who did it and why. */
export function auditOf(
  staff: UserRow,
  action: string,
  target: { kind: string; id: string },
  reason: string,
): RecordStaffChange {
  return (tx, change) =>
    adminRepository.insertAudit(tx, {
      staffUserId: staff.id,
      action,
      targetKind: target.kind,
      targetId: target.id,
      reason,
      before: change.before ?? null,
      after: change.after ?? null,
    });
}

export const staffMe = (staff: UserRow) => ({ role: staff.staffRole as TStaffRole });

/** The review queue with each author's email and whether they are banned. */
export async function reportQueue(deps: AdminDeps): Promise<TAdminReportedPost[]> {
  const entries = await listReportedPosts(deps);
  const authors = await findUsersByRefs(deps.db, [...new Set(entries.map((entry) => entry.authorId))], []);
  const byId = new Map(authors.map((author) => [author.id, author]));
  return entries.map((entry) => ({
    post: entry.post,
    author_email: byId.get(entry.authorId)?.email ?? null,
    author_banned: Boolean(byId.get(entry.authorId)?.bannedAt),
    reports: entry.reports,
    not_consented: entry.reports.some((report) => report.reason === 'not_consented'),
    takedowns: entry.takedowns,
    deadline_at: entry.deadlineAt?.toISOString() ?? null,
    deadline_state: deadlineState(entry.deadlineAt, deps.now()),
  }));
}

export async function restorePost(deps: AdminDeps, staff: UserRow, uuid: string, reason: string) {
  await deps.db.transaction((tx) =>
    rejectReportsOfPost(deps, tx, uuid, auditOf(staff, 'post.restore', { kind: 'post', id: uuid }, reason)),
  );
}

/**
 * Removes a reported post (with a takedown request: every copy, and the picture blocked); with
 * `ban`, bans its author in the same transaction.
 */
export async function removePost(
  deps: AdminDeps,
  staff: UserRow,
  uuid: string,
  reason: string,
  options: { ban: boolean },
) {
  const files = await deps.db.transaction(async (tx) => {
    const removed = await removeReportedPostForGood(
      deps,
      tx,
      uuid,
      auditOf(staff, 'post.remove', { kind: 'post', id: uuid }, reason),
    );
    if (options.ban) await banInTransaction(deps, tx, staff, removed.authorId, reason);
    return removed.files;
  });
  // Signed links to the removed files stop working now, not when the worker gets to the job.
  await deleteStoredFilesNow(deps.storage, files);
}

export async function searchUsers(deps: AdminDeps, q: string): Promise<TAdminUserSummary[]> {
  const rows = await searchUsersForStaff(deps.db, q);
  return rows.map(toUserSummary);
}

async function findByUuid(deps: AdminDeps, uuid: string): Promise<UserRow> {
  const [user] = await findUsersByRefs(deps.db, [], [uuid]);
  if (!user) throw userNotFound();
  return user;
}

function toAuditEntry({
  entry,
  staffUuid,
}: {
  entry: StaffAuditRow;
  staffUuid: string | null;
}): TAdminAuditEntry {
  return {
    id: entry.id,
    staff_uuid: staffUuid,
    action: entry.action,
    target_kind: entry.targetKind,
    target_id: entry.targetId,
    reason: entry.reason,
    before: entry.before,
    after: entry.after,
    created_at: entry.createdAt.toISOString(),
  };
}

/** One person as staff see them: profile, balance, models, generations, ledger and staff actions. */
export async function userDetail(deps: AdminDeps, uuid: string): Promise<TAdminUserDetail> {
  const user = await findByUuid(deps, uuid);
  const [balance, models, generations, ledger, audit] = await Promise.all([
    getCreditBalance(deps, user.id),
    listModelsForStaff(deps, user.id),
    listGenerationsForStaff(deps, user.id),
    getCreditHistory(deps, user.id, undefined, 50),
    adminRepository.listAuditForTarget(deps.db, 'user', user.uuid, 50),
  ]);
  return {
    user: toUserSummary(user),
    language: user.language,
    last_login: user.lastLogin?.toISOString() ?? null,
    balance,
    models,
    generations,
    credit_entries: ledger.results,
    audit: audit.map(toAuditEntry),
  };
}

/**
 * Bans a person inside the caller's transaction: the ban is set and every session family revoked
 * (the session cache hears of both from the database). Staff accounts cannot be banned: take the
 * role away first. Banning a banned person changes nothing.
 */
async function banInTransaction(
  deps: AdminDeps,
  tx: DbOrTx,
  staff: UserRow,
  userId: number,
  reason: string,
): Promise<UserRow> {
  const before = await lockUser(tx, userId);
  if (!before) throw userNotFound();
  if (before.staffRole) {
    throw new AppError({ code: 'auth.permission_denied', detail: 'Staff accounts cannot be banned.' });
  }
  if (before.bannedAt) return before;
  const now = deps.now();
  const after = await updateUser(tx, userId, now, { bannedAt: now });
  await revokeUserSessions(tx, userId, 'banned', now);
  await auditOf(
    staff,
    'user.ban',
    { kind: 'user', id: before.uuid },
    reason,
  )(tx, {
    before: toUserSummary(before),
    after: toUserSummary(after),
  });
  return after;
}

export async function banUser(deps: AdminDeps, staff: UserRow, uuid: string, reason: string) {
  const user = await findByUuid(deps, uuid);
  const after = await deps.db.transaction((tx) => banInTransaction(deps, tx, staff, user.id, reason));
  return toUserSummary(after);
}

export async function unbanUser(deps: AdminDeps, staff: UserRow, uuid: string, reason: string) {
  const user = await findByUuid(deps, uuid);
  const after = await deps.db.transaction(async (tx) => {
    const before = await lockUser(tx, user.id);
    if (!before) throw userNotFound();
    if (!before.bannedAt) return before;
    const after = await updateUser(tx, user.id, deps.now(), { bannedAt: null });
    await auditOf(
      staff,
      'user.unban',
      { kind: 'user', id: before.uuid },
      reason,
    )(tx, {
      before: toUserSummary(before),
      after: toUserSummary(after),
    });
    return after;
  });
  return toUserSummary(after);
}

/**
 * Grants (delta > 0) or takes (delta < 0) credits: one `adjustment` ledger entry under the
 * request's idempotency key, and its audit record, in one transaction. Taking more than the
 * balance is refused (`credits.insufficient`); the same key again changes nothing.
 */
export async function changeCredits(deps: AdminDeps, staff: UserRow, uuid: string, body: CreditChangeBody) {
  const user = await findByUuid(deps, uuid);
  return deps.db.transaction(async (tx) => {
    const before = await lockCredits(tx, user.id);
    const outcome = await applyCreditChange(tx, {
      userId: user.id,
      delta: body.delta,
      kind: 'adjustment',
      ref: `staff:${staff.uuid}`,
      idempotencyKey: staffCreditKey(user.id, body.idempotency_key),
    });
    if (outcome.applied) {
      await auditOf(
        staff,
        body.delta > 0 ? 'credits.grant' : 'credits.take',
        { kind: 'user', id: user.uuid },
        body.reason,
      )(tx, { before: { balance: before }, after: { balance: outcome.balance, delta: body.delta } });
    }
    return { applied: outcome.applied, balance: outcome.balance };
  });
}

export async function deleteModel(deps: AdminDeps, staff: UserRow, uuid: string, reason: string) {
  await deleteModelByStaff(deps, uuid, auditOf(staff, 'model.delete', { kind: 'model', id: uuid }, reason));
}

export const failedGenerations = async (deps: AdminDeps): Promise<TAdminFailedGenerationList> => ({
  results: await listFailedGenerations(deps),
  engines: retryEnginesByMode(deps),
});

/** Runs a failed generation again (see retryGenerationByStaff for who pays), audited. */
export function retryGeneration(
  deps: AdminDeps,
  staff: UserRow,
  uuid: string,
  body: { reason: string; engine: string | null },
): Promise<TAdminGeneration> {
  return deps.db.transaction((tx) =>
    retryGenerationByStaff(
      deps,
      tx,
      uuid,
      body.engine,
      auditOf(staff, 'generation.retry', { kind: 'generation', id: uuid }, body.reason),
    ),
  );
}

export function refundGeneration(deps: AdminDeps, staff: UserRow, uuid: string, reason: string) {
  return deps.db.transaction((tx) =>
    refundGenerationByStaff(
      deps,
      tx,
      uuid,
      auditOf(staff, 'generation.refund', { kind: 'generation', id: uuid }, reason),
    ),
  );
}

/** The console home: every number counted from the database now. */
export async function dashboard(deps: AdminDeps): Promise<TAdminDashboard> {
  const now = deps.now();
  const { today, weekStart, from, days } = dashboardWindows(now);
  const repo = adminDashboardRepository;
  const [users, generations, queue, revenue, payouts, daily, costs, sales, active, reasons, likeness] =
    await Promise.all([
      repo.users(deps.db, today, weekStart),
      repo.generationsSince(deps.db, today),
      repo.queue(deps.db),
      repo.revenue(deps.db, today, from),
      repo.pendingPayouts(deps.db),
      repo.daily(deps.db, from),
      repo.costsSince(deps.db, today, from),
      repo.creditSales(deps.db, from),
      repo.activeUsers(deps.db, today, weekStart),
      repo.failureReasons(deps.db, today, 10),
      repo.likenessRefunds(deps.db, from),
    ]);
  return {
    generated_at: now.toISOString(),
    users,
    generations_today: summariseGenerations(generations),
    queue: { depth: queue.depth, oldest_age_seconds: queue.oldestAgeSeconds },
    revenue,
    margin: marginTables(costs, creditPriceUsd(sales)),
    active_users: active,
    failure_reasons_today: reasons,
    likeness_refunds: likenessRefundShares(likeness),
    payouts_pending: payouts,
    series: dailySeries(days, daily),
  };
}

/** A person's money as staff see it: orders, wallet and premium subscription. */
export async function userMoney(deps: AdminDeps, uuid: string): Promise<TAdminUserMoney> {
  const user = await findByUuid(deps, uuid);
  const [orders, balances, entries, subscription] = await Promise.all([
    listOrdersForStaff(deps, user.id),
    getWalletBalances(deps, user.id),
    listRecentWalletEntries(deps, user.id),
    findSubscriptionForStaff(deps, user.id),
  ]);
  return { orders, wallet: { balances: balances.balances, entries }, subscription };
}

/**
 * The payment search: the term names an order (its uuid or the provider's payment id) or buyers
 * (email, Telegram id or uuid, as in the people search); their orders, newest first, a page at a time.
 */
export async function searchPayments(
  deps: AdminDeps,
  query: PaymentSearchQuery,
): Promise<TAdminPaymentSearchPage> {
  const term = query.q || null;
  const buyers = term ? await searchUsersForStaff(deps.db, term, 50) : [];
  const found = await searchOrdersForStaff(
    deps,
    term,
    buyers.map((buyer) => buyer.id),
    query.cursor,
    query.limit,
  );
  const owners = await findUsersByRefs(deps.db, [...new Set(found.results.map((row) => row.userId))], []);
  const byId = new Map(owners.map((owner) => [owner.id, owner]));
  return {
    results: found.results.map(({ order, userId }) => {
      const buyer = byId.get(userId);
      return {
        order,
        buyer: {
          uuid: buyer?.uuid ?? '',
          email: buyer?.email ?? null,
          telegram_id: buyer?.telegramId ?? null,
        },
      };
    }),
    next: found.next,
  };
}

/**
 * Gives a paid order's money back through its provider. A wallet payment returns at once; a
 * provider's refund is asked for (each provider refunds an order once: Stripe and YooKassa by the
 * order's refund key, Stars and Cryptomus refuse a second one) and applied, with what the purchase
 * granted taken back, when the provider's notification arrives. The audit row, with the order's
 * owner, is written in the refund's own transaction: a refund that fails leaves none.
 */
export async function refundOrder(deps: AdminDeps, staff: UserRow, orderUuid: string, reason: string) {
  const ownerId = await findOrderOwner(deps, orderUuid);
  const [owner] = ownerId ? await findUsersByRefs(deps.db, [ownerId], []) : [];
  const audit = auditOf(staff, 'payment.refund', { kind: 'payment', id: orderUuid }, reason);
  const outcome = await refundPaymentOrder(deps, orderUuid, undefined, (tx, refunded) =>
    audit(tx, { before: { status: 'paid', user_uuid: owner?.uuid ?? null }, after: { outcome: refunded } }),
  );
  return { outcome };
}

type PayoutRow = Awaited<ReturnType<typeof listPendingPayouts>>[number];

async function toAdminPayouts(deps: AdminDeps, rows: PayoutRow[]): Promise<TAdminPayout[]> {
  const owners = await findUsersByRefs(deps.db, [...new Set(rows.map((row) => row.userId))], []);
  const byId = new Map(owners.map((owner) => [owner.id, owner]));
  return rows.map((row) => {
    const { method, ...requisites } = row.requisites;
    return {
      uuid: row.uuid,
      user_uuid: byId.get(row.userId)?.uuid ?? '',
      user_email: byId.get(row.userId)?.email ?? null,
      amount: row.amount,
      currency: row.currency,
      method,
      requisites: Object.fromEntries(Object.entries(requisites).map(([key, value]) => [key, String(value)])),
      status: row.status,
      reason: row.reason,
      reference: row.reference,
      created_at: row.createdAt.toISOString(),
    };
  });
}

export async function pendingPayouts(deps: AdminDeps): Promise<TAdminPayout[]> {
  return toAdminPayouts(deps, await listPendingPayouts(deps));
}

/**
 * Marks a pay-out paid, with the transfer's reference kept on the pay-out (the partner sees it) and
 * in the audit entry; the partner is told.
 */
export async function approvePayout(
  deps: AdminDeps,
  staff: UserRow,
  uuid: string,
  body: { reason: string; reference: string },
): Promise<TAdminPayout> {
  const audit = auditOf(staff, 'payout.approve', { kind: 'payout', id: uuid }, body.reason);
  const row = await settlePayout(
    deps,
    uuid,
    (tx, change) =>
      audit(tx, { before: change.before, after: { ...(change.after as object), reference: body.reference } }),
    body.reference,
    staff.id,
  );
  return (await toAdminPayouts(deps, [row]))[0]!;
}

/** Refuses a pay-out: the money is available to the partner again, and they are told why. */
export async function rejectPayout(
  deps: AdminDeps,
  staff: UserRow,
  uuid: string,
  reason: string,
): Promise<TAdminPayout> {
  const row = await refusePayout(
    deps,
    uuid,
    reason,
    auditOf(staff, 'payout.reject', { kind: 'payout', id: uuid }, reason),
  );
  return (await toAdminPayouts(deps, [row]))[0]!;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The audit log, newest first, narrowed by the query's filters, a page at a time. */
export async function auditLog(deps: AdminDeps, query: AuditQuery): Promise<TAdminAuditPage> {
  let staffUserId: number | undefined;
  if (query.staff) {
    const [staff] = await findUsersByRefs(deps.db, [], [query.staff]);
    if (!staff) return { results: [], next: null };
    staffUserId = staff.id;
  }
  const filter = {
    staffUserId,
    actionPrefix: query.action || undefined,
    targetId: query.target || undefined,
    from: query.from ? new Date(`${query.from}T00:00:00Z`) : undefined,
    before: query.to ? new Date(new Date(`${query.to}T00:00:00Z`).getTime() + DAY_MS) : undefined,
  };
  const { page, next } = await readIdCursorPage(query.cursor, query.limit, async (beforeId, take) =>
    (await adminRepository.listAudit(deps.db, filter, beforeId, take)).map((row) => ({
      ...row,
      id: row.entry.id,
    })),
  );
  return { results: page.map(toAuditEntry), next };
}
