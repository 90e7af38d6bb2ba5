import type { TAdminPaymentOrder } from '@mirra/contracts';
import type { PaymentsDeps } from './payments.deps.js';
import { paymentsRepository, type PaymentOrderRow } from './payments.repository.js';

// What staff see of orders: a person's orders, the payment search, an order's owner. Staff
// refunds are refundOrder's (refunds.usecases.ts), with the audit row the admin module writes.

/** A person's latest orders as staff see them, newest first. */
export async function listOrdersForStaff(
  deps: Pick<PaymentsDeps, 'db'>,
  userId: number,
  limit = 50,
): Promise<TAdminPaymentOrder[]> {
  const rows = await paymentsRepository.listUserOrders(deps.db, userId, limit);
  return rows.map(toStaffOrder);
}

function toStaffOrder(order: PaymentOrderRow): TAdminPaymentOrder {
  return {
    uuid: order.uuid,
    product: order.product,
    purpose: order.purpose,
    provider: order.provider,
    method: order.method,
    status: order.status,
    amount: order.amount,
    currency: order.currency,
    credits: order.credits,
    provider_payment_id: order.providerPaymentId,
    created_at: order.createdAt.toISOString(),
    paid_at: order.paidAt?.toISOString() ?? null,
    refunded_at: order.refundedAt?.toISOString() ?? null,
    amount_refunded: order.amountRefunded,
    refundable: order.status === 'paid',
  };
}

const UUID_TERM = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Orders for the staff payment search, newest first, a page at a time: the term is tried as the
 * order's uuid, the provider's payment id, and as any of `buyerIds` (the people the term named);
 * no term lists every order. Each order comes with its buyer's id.
 */
export async function searchOrdersForStaff(
  deps: Pick<PaymentsDeps, 'db'>,
  term: string | null,
  buyerIds: number[],
  cursor: string | undefined,
  limit: number,
): Promise<{ results: { order: TAdminPaymentOrder; userId: number }[]; next: string | null }> {
  const terms = term
    ? {
        orderUuid: UUID_TERM.test(term) ? term.toLowerCase() : null,
        providerPaymentId: term,
        userIds: buyerIds,
      }
    : null;
  // The cursor is the last order's uuid; anything else starts from the newest.
  const after = cursor && UUID_TERM.test(cursor) ? cursor.toLowerCase() : null;
  const rows = await paymentsRepository.searchOrders(deps.db, terms, after, limit + 1);
  const page = rows.slice(0, limit);
  return {
    results: page.map((order) => ({ order: toStaffOrder(order), userId: order.userId })),
    next: rows.length > limit ? page.at(-1)!.uuid : null,
  };
}

/** The person an order belongs to (staff audit the refund on the order and see whose it was). */
export async function findOrderOwner(
  deps: Pick<PaymentsDeps, 'db'>,
  orderUuid: string,
): Promise<number | null> {
  return (await paymentsRepository.findOrder(deps.db, orderUuid))?.userId ?? null;
}
