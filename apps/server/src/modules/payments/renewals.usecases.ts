import { randomUUID } from 'node:crypto';
import { describeOrder, methodUnavailable, providerOrderOf } from './payment-orders.js';
import type { ProviderName } from './payment-provider.js';
import type { PaymentsDeps } from './payments.deps.js';
import { providerNamed, providerOfMethod } from './payments.providers.js';
import { paymentsRepository } from './payments.repository.js';
import type { StartPaymentInput } from './checkout.usecases.js';
import { applyEvents, type EventDeps } from './provider-events.usecases.js';

// Renewals with no buyer present: a saved method charged by Mirra, or a provider's own
// subscription stopped. Which a provider does is its `capabilities.recurring`.

/**
 * A renewal charged to a method saved by an earlier payment (YooKassa `payment_method_id`), with
 * no buyer present: a new order (its uuid is the idempotency key), the result applied at once
 * when final and otherwise by its notification or the reconciler.
 */
export async function chargeSavedMethod(
  deps: EventDeps,
  input: Omit<StartPaymentInput, 'method' | 'returnPath' | 'consent' | 'recurring' | 'saveMethod'> & {
    /** The way to pay (or the provider's name) the saved method belongs to. */
    method?: string;
    provider?: ProviderName;
    savedMethodId: string;
  },
): Promise<{ uuid: string; status: 'pending' | 'paid' | 'failed' }> {
  const named = input.provider ?? input.method ?? '';
  const provider = providerOfMethod(deps, named) ?? providerNamed(deps, named);
  if (!provider?.chargeSavedMethod) throw methodUnavailable();
  const now = deps.now();
  // The receipt goes where the first payment's went (typed at checkout when the account has none).
  const receiptEmail =
    input.receiptEmail ??
    (input.purposeRef ? await paymentsRepository.latestReceiptEmail(deps.db, input.purposeRef) : null);
  const order = await paymentsRepository.insertOrder(deps.db, {
    userId: input.userId,
    product: input.product,
    provider: provider.name,
    receiptEmail,
    method: input.method ?? provider.name,
    purpose: input.purpose,
    purposeRef: input.purposeRef,
    amount: input.amount,
    currency: input.currency,
    credits: input.credits ?? 0,
    unlimitedDays: input.unlimitedDays ?? 0,
    returnPath: '/',
    savedMethodId: input.savedMethodId,
    // The consent given with the first payment covers its renewals.
    offerVersion: deps.config.payments.offerVersion,
    privacyVersion: deps.config.payments.privacyVersion,
    consentedAt: now,
  });
  let charged: Awaited<ReturnType<NonNullable<typeof provider.chargeSavedMethod>>>;
  try {
    charged = await provider.chargeSavedMethod(
      await providerOrderOf(deps, order, input.description ?? describeOrder(order)),
      input.savedMethodId,
    );
  } catch (error) {
    // Refused outright (a 4xx): a failed renewal, retried later with a new order.
    deps.logger.warn({ err: error, order: order.uuid }, 'charging a saved method failed');
    const providerPaymentId = `failed:${randomUUID()}`;
    charged = {
      providerPaymentId,
      event: {
        type: 'payment.failed',
        eventId: providerPaymentId,
        orderUuid: order.uuid,
        providerPaymentId,
        amount: order.amount,
        currency: order.currency,
      },
    };
  }
  await paymentsRepository.updateOrder(deps.db, order.uuid, deps.now(), {
    providerPaymentId: charged.providerPaymentId,
  });
  if (charged.event) await applyEvents(deps, provider.name, [charged.event]);
  const after = (await paymentsRepository.findOrder(deps.db, order.uuid))!;
  return {
    uuid: order.uuid,
    status: after.status === 'paid' ? 'paid' : after.status === 'pending' ? 'pending' : 'failed',
  };
}

/**
 * Whether a charge of a saved method for this item (a subscription's uuid) is still pending at its
 * provider: a renewal is not charged again while the last one has not been answered.
 */
export function hasPendingCharge(deps: Pick<PaymentsDeps, 'db'>, purposeRef: string): Promise<boolean> {
  return paymentsRepository.hasPendingOrderFor(deps.db, purposeRef);
}

/** Stops a provider's own renewals of a subscription; access runs to its date. */
export async function cancelProviderSubscription(
  deps: Pick<PaymentsDeps, 'config' | 'db' | 'linkSecret' | 'telegramBot' | 'now'>,
  input: { provider: ProviderName; providerSubscriptionId: string; userId: number },
): Promise<void> {
  const provider = providerNamed(deps, input.provider);
  if (!provider?.cancelSubscription) throw methodUnavailable();
  await provider.cancelSubscription(input);
}
