import { payoutMinimumMessage, WALLET_CURRENCIES } from '@mirra/contracts';
import type { PartnersDeps } from './partners.deps.js';
import type { RecordStaffChange } from '../../shared/staff-audit.js';
import { AppError, fieldError } from '../../shared/errors.js';
import { applyCreditChange } from '../credits/index.js';
import { findUserById } from '../users/index.js';
import {
  cancelWalletEntry,
  getWalletBalance,
  lockWallet,
  recordWalletEntry,
  reserveWalletMoney,
  settleWalletEntry,
  transferWalletMoney,
} from '../wallet/index.js';
import { tellPartner } from './partners.usecases.js';
import { partnersRepository, type PayoutRow } from './partners.repository.js';
import { checkRequisites, creditsCost, maskRequisites, type PayoutRequisites } from './payouts.models.js';

type Deps = PartnersDeps;

const payoutKey = (uuid: string) => `payout:${uuid}`;

const knownCurrency = (currency: number) => {
  if (!(WALLET_CURRENCIES as readonly number[]).includes(currency)) {
    throw new AppError({ code: 'wallet.currency_unknown', detail: 'Unknown currency.' });
  }
  return currency;
};

export const serializePayout = (row: PayoutRow) => ({
  uuid: row.uuid,
  currency: row.currency,
  amount: row.amount,
  method: row.method,
  requisites: maskRequisites(row.requisites),
  status: row.status,
  reason: row.reason,
  reference: row.reference,
  created_at: row.createdAt.toISOString(),
  decided_at: row.decidedAt?.toISOString() ?? null,
});

/**
 * A pay-out request: requisites checked, the amount at least the currency's minimum, and the
 * money reserved in the wallet in the same transaction — under the wallet's row lock, so requests
 * at once can never together take more than the available balance. Only earned commission is paid
 * out: money topped up is for spending in Mirra, so an amount beyond the payable part of the
 * balance is refused (`wallet.not_payable`) even when the wallet holds it. The requisites are kept
 * for next time. `clientKey` makes a double submit one request.
 */
export async function requestPayout(
  deps: Deps,
  userId: number,
  body: {
    currency: number;
    amount: number;
    client_key: string;
    method: 'card' | 'sbp' | 'crypto';
    card?: string | null;
    phone?: string | null;
    bank?: string | null;
    network?: string | null;
    address?: string | null;
    holder?: string | null;
  },
) {
  const currency = knownCurrency(body.currency);
  const { errors, requisites } = checkRequisites(body);
  const minimum = deps.config.partners.payoutMin[currency] ?? 1;
  if (!Number.isSafeInteger(body.amount) || body.amount < minimum) {
    errors.amount = [payoutMinimumMessage(minimum)];
  }
  if (Object.keys(errors).length || !requisites) throw fieldError('common.validation', errors);
  return deps.db.transaction(async (tx) => {
    const existing = await partnersRepository.findPayoutByClientKey(tx, userId, body.client_key);
    if (existing) return serializePayout(existing);
    await lockWallet(tx, userId, currency);
    const balance = await getWalletBalance(tx, userId, currency, deps.now());
    if (body.amount > balance.payable && body.amount <= balance.available) {
      throw new AppError({
        code: 'wallet.not_payable',
        detail: 'Only earned commission can be paid out; topped-up money is for spending in Mirra.',
        extra: { payable: balance.payable, available: balance.available, currency },
      });
    }
    const row = await partnersRepository.insertPayout(tx, {
      userId,
      currency,
      amount: body.amount,
      method: requisites.method,
      requisites,
      clientKey: body.client_key,
      createdAt: deps.now(),
    });
    await reserveWalletMoney(
      tx,
      { userId, currency, amount: body.amount, idempotencyKey: payoutKey(row.uuid), ref: row.uuid },
      deps.now(),
    );
    await partnersRepository.saveRequisites(tx, userId, deps.now(), requisites);
    return serializePayout(row);
  });
}

/** The requisites of the last pay-out, to fill the form with (the card number in full: it is theirs). */
export async function getSavedRequisites(deps: Deps, userId: number): Promise<PayoutRequisites | null> {
  return ((await partnersRepository.findRequisites(deps.db, userId)) as PayoutRequisites | undefined) ?? null;
}

export async function listPayouts(deps: Deps, userId: number) {
  return (await partnersRepository.listPayouts(deps.db, { userId }, 50)).map(serializePayout);
}

async function decide(
  deps: Deps,
  uuid: string,
  decision: 'paid' | 'rejected',
  reason: string | null,
  record?: RecordStaffChange,
  reference: string | null = null,
  decidedBy: number | null = null,
): Promise<PayoutRow> {
  return deps.db.transaction(async (tx) => {
    const row = await partnersRepository.lockPayout(tx, uuid);
    if (!row) throw new AppError({ code: 'common.not_found', detail: 'Not found.' });
    if (row.status !== 'pending') {
      if (row.status === decision) return row;
      throw new AppError({ code: 'partners.payout_decided', detail: 'This pay-out was already decided.' });
    }
    if (decision === 'paid') {
      // Four eyes on money leaving Mirra: a staff member's own pay-out is approved by another.
      if (decidedBy !== null && decidedBy === row.userId) {
        throw new AppError({
          code: 'partners.payout_own',
          detail: 'Your own pay-out is approved by another staff member.',
        });
      }
      // A refund clawed back commission after the request: while the wallet is in debt, the
      // reserved money is not the partner's to take. Refuse it (the money returns and nets the
      // debt); the partner asks again for what is payable then.
      await lockWallet(tx, row.userId, row.currency);
      const balance = await getWalletBalance(tx, row.userId, row.currency, deps.now());
      if (balance.available < 0) {
        throw new AppError({
          code: 'partners.payout_in_debt',
          detail:
            "The partner's balance is negative: refuse this pay-out; the debt is taken from later commission.",
          extra: { debt: -balance.available, currency: row.currency },
        });
      }
      await settleWalletEntry(tx, payoutKey(uuid));
    } else await cancelWalletEntry(tx, payoutKey(uuid), deps.now());
    const updated = await partnersRepository.updatePayout(tx, uuid, {
      status: decision,
      reason,
      reference,
      decidedAt: deps.now(),
    });
    await tellPartner(deps, tx, row.userId, {
      kind: decision === 'paid' ? 'payout_paid' : 'payout_rejected',
      dedupeKey: `payout_${decision}:${uuid}`,
      amount: row.amount,
      currency: row.currency,
    });
    await record?.(tx, {
      before: { status: row.status, amount: row.amount, currency: row.currency },
      after: { status: updated.status, reason, ...(reference !== null ? { reference } : {}) },
    });
    return updated;
  });
}

/**
 * An admin sent the money: the reservation becomes money out, and the transfer's reference (empty:
 * none given) is kept on the pay-out for the partner to see. Repeating it changes nothing.
 * `record` writes the staff audit entry in the decision's transaction (only when it changes);
 * `decidedBy`, the staff member, may not be the partner. Refused while the partner's balance is
 * negative (a refund clawed back commission already requested).
 */
export const approvePayout = (
  deps: Deps,
  uuid: string,
  record?: RecordStaffChange,
  reference = '',
  decidedBy: number | null = null,
) => decide(deps, uuid, 'paid', null, record, reference || null, decidedBy);

/** An admin refused the request: the reserved money is available again. */
export const rejectPayout = (deps: Deps, uuid: string, reason: string, record?: RecordStaffChange) =>
  decide(deps, uuid, 'rejected', reason, record);

/** Pending pay-outs, oldest first, for the admin console. */
export async function listPendingPayouts(deps: Deps, limit = 100) {
  return partnersRepository.listPayouts(deps.db, { status: 'pending' }, limit);
}

/**
 * Moves wallet money to one's own credits at the configured rate: `credits` are bought for their
 * cost rounded up to a whole minor unit, both entries in one transaction under one key.
 */
export async function transferToCredits(
  deps: Deps,
  userId: number,
  body: { currency: number; credits: number; client_key: string },
) {
  const currency = knownCurrency(body.currency);
  const rate = deps.config.partners.creditsPerUnit[currency]!;
  const cost = creditsCost(body.credits, rate);
  const key = `wallet_credits:${userId}:${body.client_key}`;
  return deps.db.transaction(async (tx) => {
    const change = await recordWalletEntry(
      tx,
      { userId, currency, amount: -cost, kind: 'transfer', ref: 'credits', idempotencyKey: key },
      deps.now(),
    );
    const credits = await applyCreditChange(tx, {
      userId,
      delta: body.credits,
      kind: 'wallet_transfer',
      ref: change.entry.id.toString(),
      idempotencyKey: key,
    });
    return { credits: body.credits, cost, currency, balance: credits.balance };
  });
}

/** Sends wallet money to another Mirra user, found by their profile's uuid. */
export async function transferToUser(
  deps: Deps,
  userId: number,
  body: { currency: number; amount: number; to: string; client_key: string },
) {
  const currency = knownCurrency(body.currency);
  const recipient = await partnersRepository.findActiveUserIdByUuid(deps.db, body.to);
  if (!recipient || recipient === userId) {
    throw fieldError('common.validation', { to: ['Choose another Mirra user.'] });
  }
  return deps.db.transaction(async (tx) => {
    await transferWalletMoney(
      tx,
      {
        fromUserId: userId,
        toUserId: recipient,
        currency,
        amount: body.amount,
        idempotencyKey: `wallet_transfer:${userId}:${body.client_key}`,
        ref: body.to,
      },
      deps.now(),
    );
    const user = await findUserById(tx, recipient);
    return {
      amount: body.amount,
      currency,
      to: { uuid: body.to, name: user ? `${user.firstName} ${user.lastName}`.trim() || user.username : '' },
    };
  });
}
