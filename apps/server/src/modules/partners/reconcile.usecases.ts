import type { PartnersDeps } from './partners.deps.js';
import { reconcileRepository, type WalletFinding } from './reconcile.repository.js';

/** How long after joining a member's new-partner job is taken to have counted them. */
const MEMBER_SETTLE_MS = 24 * 3600 * 1000;

export interface WalletReconciliation {
  /** Every mismatch found (each recorded in `wallet_audit_findings` and logged). */
  findings: number;
  /** Of them, derived rows rebuilt from the commissions. */
  repaired: number;
}

/**
 * The nightly proof that the partner programme and the wallet agree. Wallet balances are never
 * stored: they are sums over `wallet_entries`, so what can drift is what sits beside the ledger —
 * - each commission against its wallet entries (bonus, cancellation, clawbacks), net of reversals;
 * - each pay-out request against its reserve entry (pending, out when paid, cancelled when rejected);
 * - the monthly aggregates and paying-member counts, rebuilt from `partner_commissions`;
 * - team sizes against the referral tree.
 * Money mismatches are recorded and logged as errors for an operator (a bug or a manual edit: the
 * ledger is never rewritten by a job). Aggregates are derived data: the job rebuilds them under a
 * lock that holds back concurrent commissions. Team sizes are only reported: the new-partner job
 * adds to them after sign-up, so a rebuild could count a member whose job is still queued twice.
 */
export async function reconcilePartnerWallets(
  deps: Pick<PartnersDeps, 'db' | 'logger' | 'now' | 'config'>,
): Promise<WalletReconciliation> {
  const findings: WalletFinding[] = [];
  for (const row of await reconcileRepository.commissionEntryMismatches(deps.db)) {
    findings.push({
      check: 'commission_entries',
      userId: row.userId,
      ref: row.key,
      expected: row.expected === null ? 'no commission' : String(row.expected),
      actual: String(row.actual),
    });
  }
  for (const row of await reconcileRepository.payoutReserveMismatches(deps.db)) {
    findings.push({
      check: 'payout_reserve',
      userId: row.userId,
      ref: `payout:${row.uuid}`,
      expected: row.expected,
      actual: row.actual,
    });
  }
  const depth = deps.config.partners.levels.length;
  const members = await reconcileRepository.memberMismatches(
    deps.db,
    depth,
    new Date(deps.now().getTime() - MEMBER_SETTLE_MS),
  );
  for (const row of members) {
    findings.push({
      check: 'partner_members',
      userId: row.userId,
      ref: `level:${row.level}`,
      expected: row.settled === row.everyone ? String(row.everyone) : `${row.settled}..${row.everyone}`,
      actual: String(row.actual),
    });
  }
  const repairs = await deps.db.transaction(async (tx) => {
    await reconcileRepository.lockAggregates(tx);
    const repaired: WalletFinding[] = [];
    for (const row of await reconcileRepository.monthlyMismatches(tx)) {
      await reconcileRepository.setMonth(tx, row, row.expected);
      const show = (v: typeof row.expected) =>
        `income ${v.income}, turnover ${v.turnover}, first line ${v.firstLine}`;
      repaired.push({
        check: 'partner_monthly',
        userId: row.userId,
        ref: `${row.month}:${row.currency}`,
        expected: show(row.expected),
        actual: show(row.actual),
        repaired: true,
      });
    }
    for (const row of await reconcileRepository.payingMismatches(tx)) {
      await reconcileRepository.setPaying(tx, row, row.expected);
      repaired.push({
        check: 'partner_paying',
        userId: row.userId,
        ref: `level:${row.level}`,
        expected: String(row.expected),
        actual: String(row.actual),
        repaired: true,
      });
    }
    return repaired;
  });
  findings.push(...repairs);
  await reconcileRepository.recordFindings(deps.db, findings);
  for (const finding of findings) {
    const log = { ...finding };
    if (finding.repaired) deps.logger.warn(log, 'partner aggregate disagreed with its commissions; rebuilt');
    else deps.logger.error(log, 'partner wallet does not match its ledger');
  }
  return { findings: findings.length, repaired: repairs.length };
}
