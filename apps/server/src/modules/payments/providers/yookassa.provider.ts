import { BlockList, isIP } from 'node:net';
import { z } from 'zod';
import { CURRENCY_RUB, CURRENCY_USD, type TPaymentMethod } from '@mirra/contracts';
import type {
  PaymentEvent,
  PaymentProvider,
  ProviderOrder,
  YooKassaMethodType,
} from '../payment-provider.js';
import { currencyAlpha, currencyNumeric, decimalToMinor, minorToDecimal } from '../money.js';

/**
 * The networks YooKassa sends its HTTP notifications from, as YooKassa publishes them. Its
 * notifications carry no signature: they are trusted by where they come from, and then only what
 * the API itself answers for the payment is acted on.
 */
export const YOOKASSA_NETWORKS = [
  '185.71.76.0/27',
  '185.71.77.0/27',
  '77.75.153.0/25',
  '77.75.156.11',
  '77.75.156.35',
  '77.75.154.128/25',
  '2a02:5180::/32',
];

export interface YooKassaConfig {
  shopId: string;
  secretKey: string;
  apiBase: string;
  methods: YooKassaMethodType[];
  webhookNetworks?: string[] | undefined;
}

/** A card check holds 1.00 (in minor units) — the smallest payment YooKassa takes — and releases it. */
const CARD_CHECK_AMOUNT = 100;

/**
 * What a YooKassa order holds on the card and gives back: a trial (nothing to pay now, the card
 * kept) is a card check of CARD_CHECK_AMOUNT; any other order holds nothing of its own.
 */
export function cardCheckHold(order: { amount: number; saveMethod?: boolean | undefined }): number {
  return order.amount === 0 && order.saveMethod === true ? CARD_CHECK_AMOUNT : 0;
}

/** The way to pay the buyer picks for each of YooKassa's own methods. */
const methodOf = (type: YooKassaMethodType): TPaymentMethod => `yookassa_${type}`;
const typeOf = (method: string): YooKassaMethodType | undefined =>
  (['bank_card', 'sberbank', 'sbp'] as const).find((type) => methodOf(type) === method);

const ZAmount = z.object({ value: z.string(), currency: z.string() });
const ZPayment = z
  .object({
    id: z.string().min(1),
    status: z.enum(['pending', 'waiting_for_capture', 'succeeded', 'canceled']),
    paid: z.boolean().optional(),
    amount: ZAmount,
    confirmation: z.object({ type: z.string(), confirmation_url: z.string().optional() }).loose().optional(),
    metadata: z.record(z.string(), z.string()).nullish(),
    payment_method: z.object({ type: z.string(), id: z.string(), saved: z.boolean() }).loose().optional(),
    cancellation_details: z.object({ party: z.string(), reason: z.string() }).loose().optional(),
    /** The total refunded so far (partial refunds add up). */
    refunded_amount: ZAmount.optional(),
  })
  .loose();
type YooKassaPayment = z.infer<typeof ZPayment>;
const ZRefund = z
  .object({ id: z.string().min(1), payment_id: z.string().min(1), status: z.string(), amount: ZAmount })
  .loose();
const ZNotification = z.object({
  type: z.literal('notification'),
  event: z.string(),
  object: z.object({ id: z.string().min(1).max(64) }).loose(),
});

/** YooKassa answered with an error; `retryable` for a 5xx ("result unknown": repeat with the same key). */
export class YooKassaError extends Error {
  override name = 'YooKassaError';
  constructor(
    readonly status: number,
    readonly code: string,
    description: string,
  ) {
    super(`YooKassa ${status} ${code}: ${description}`);
  }
}

/** Cancellations the buyer caused (left the page, the hour ran out) versus a refused charge. */
const BUYER_CANCEL_REASONS = new Set(['expired_on_confirmation', 'canceled_by_merchant']);

/**
 * YooKassa API v3: payments by bank card, SberPay (`sberbank`) and SBP on YooKassa's page
 * (`confirmation.type: redirect`), saved methods for renewals, 54-FZ receipts, refunds. Every
 * create carries an `Idempotence-Key` derived from the order, so a retried request is a repeat.
 */
export function createYooKassaProvider(
  config: YooKassaConfig,
  options: { fetch?: typeof fetch; retryDelayMs?: number } = {},
): PaymentProvider & { isTrustedSource(ip: string): boolean } {
  const doFetch = options.fetch ?? fetch;
  const authorization = `Basic ${Buffer.from(`${config.shopId}:${config.secretKey}`).toString('base64')}`;
  const trusted = new BlockList();
  for (const network of config.webhookNetworks ?? YOOKASSA_NETWORKS) {
    const [address, prefix] = network.split('/');
    const family = isIP(address!) === 6 ? 'ipv6' : 'ipv4';
    if (prefix) trusted.addSubnet(address!, Number(prefix), family);
    else trusted.addAddress(address!, family);
  }
  const isTrustedSource = (ip: string) => {
    const plain = ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
    const family = isIP(plain);
    return family !== 0 && trusted.check(plain, family === 6 ? 'ipv6' : 'ipv4');
  };

  /** One API call; a 5xx or a lost connection is repeated with the same key and body (up to 3 times). */
  async function call<T>(
    method: 'GET' | 'POST',
    path: string,
    schema: z.ZodType<T>,
    body?: unknown,
    idempotenceKey?: string,
  ): Promise<T> {
    let lastError: unknown;
    for (let attempt = 0; attempt < 3; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, (options.retryDelayMs ?? 1000) * attempt));
      let response: Response;
      try {
        response = await doFetch(`${config.apiBase}${path}`, {
          method,
          headers: {
            authorization,
            ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
            ...(idempotenceKey ? { 'idempotence-key': idempotenceKey } : {}),
          },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
          signal: AbortSignal.timeout(15_000),
        });
      } catch (error) {
        lastError = error;
        continue;
      }
      const json = (await response.json().catch(() => null)) as {
        code?: string;
        description?: string;
      } | null;
      if (response.ok) return schema.parse(json);
      lastError = new YooKassaError(
        response.status,
        json?.code ?? 'unknown',
        json?.description ?? `HTTP ${response.status}`,
      );
      if (response.status < 500) break;
    }
    throw lastError;
  }

  const amountOf = (order: Pick<ProviderOrder, 'amount' | 'currency'>) => ({
    value: minorToDecimal(order.amount),
    currency: currencyAlpha(order.currency),
  });

  /** 54-FZ: the receipt YooKassa fiscalises, sent to the buyer's email. */
  const receiptOf = (order: ProviderOrder) =>
    order.customerEmail
      ? {
          receipt: {
            customer: { email: order.customerEmail },
            items: [
              {
                description: order.description.slice(0, 128),
                quantity: '1.00',
                amount: amountOf(order),
                vat_code: 1,
                payment_mode: 'full_payment',
                payment_subject: 'service',
              },
            ],
          },
        }
      : {};

  /** The payment as YooKassa itself reports it, in Mirra's terms. */
  function eventOf(payment: YooKassaPayment): PaymentEvent | null {
    const orderUuid = payment.metadata?.order_id ?? null;
    const cardCheck = payment.metadata?.card_check === 'true';
    const base = {
      eventId: `${payment.id}:${payment.status}`,
      orderUuid,
      providerPaymentId: payment.id,
      // A card check is an order of no money: the held rouble is never taken.
      amount: cardCheck ? 0 : decimalToMinor(payment.amount.value),
      currency: currencyNumeric(payment.amount.currency),
    };
    if (cardCheck) {
      // Held with the card saved: the check passed (its hold is released by `releaseCardCheck`).
      if (payment.status === 'waiting_for_capture' && payment.payment_method?.saved) {
        return { type: 'payment.succeeded', ...base, savedMethodId: payment.payment_method.id };
      }
      // Mirra's own release of the hold after the check says nothing new.
      if (payment.status === 'canceled' && payment.cancellation_details?.party === 'merchant') return null;
    }
    if (payment.status === 'succeeded') {
      return {
        type: 'payment.succeeded',
        ...base,
        ...(payment.payment_method?.saved ? { savedMethodId: payment.payment_method.id } : {}),
      };
    }
    if (payment.status === 'canceled') {
      const reason = payment.cancellation_details?.reason ?? '';
      return { type: BUYER_CANCEL_REASONS.has(reason) ? 'payment.cancelled' : 'payment.failed', ...base };
    }
    return null;
  }

  /**
   * The payment, and a card check's hold released once it is held: the card stays saved, the
   * rouble is never taken (`POST /payments/{id}/cancel`, keyed so a repeat releases it once).
   */
  async function getPayment(id: string): Promise<YooKassaPayment> {
    const payment = await call('GET', `/payments/${encodeURIComponent(id)}`, ZPayment);
    if (payment.metadata?.card_check === 'true' && payment.status === 'waiting_for_capture') {
      await call('POST', `/payments/${encodeURIComponent(id)}/cancel`, ZPayment, {}, `release:${payment.id}`);
    }
    return payment;
  }

  return {
    name: 'yookassa',
    capabilities: {
      methods: config.methods.map(methodOf),
      // Roubles for Russia; elsewhere Stripe takes dollars.
      regions: ['ru'],
      currencies: [CURRENCY_RUB, CURRENCY_USD],
      miniAppOnly: false,
      receiptEmail: true,
      recurring: 'saved_method',
      // A trial keeps the card by a card check (a held rouble, released): SBP cannot hold.
      trialMethods: config.methods.filter((type) => type !== 'sbp').map(methodOf),
      partialRefunds: true,
      refundsAtOnce: false,
      movesMoney: true,
      // SberPay returns the buyer from its app, often to another browser than the one that paid.
      invoicePageMethods: [methodOf('sberbank')],
    },
    heldOnCard: cardCheckHold,
    isTrustedSource,

    async createPayment(order) {
      // A trial keeps the card with nothing charged: a card check of the smallest amount YooKassa
      // takes, held (`capture: false`) with the method saved, then released, never captured.
      const cardCheck = cardCheckHold(order) > 0;
      const payment = await call(
        'POST',
        '/payments',
        ZPayment,
        {
          amount: cardCheck
            ? amountOf({ amount: CARD_CHECK_AMOUNT, currency: order.currency })
            : amountOf(order),
          capture: !cardCheck,
          confirmation: { type: 'redirect', return_url: order.returnUrl },
          description: order.description.slice(0, 128),
          metadata: {
            order_id: order.uuid,
            user_id: String(order.userId),
            ...(cardCheck ? { card_check: 'true' } : {}),
          },
          ...(typeOf(order.method) ? { payment_method_data: { type: typeOf(order.method) } } : {}),
          ...(order.recurring || order.saveMethod ? { save_payment_method: true } : {}),
          // Nothing is sold by a card check, so it has no receipt.
          ...(cardCheck ? {} : receiptOf(order)),
        },
        `payment:${order.uuid}`,
      );
      const url = payment.confirmation?.confirmation_url;
      if (!url) throw new YooKassaError(502, 'no_confirmation', 'the payment came without confirmation_url');
      return { confirmationUrl: url, providerPaymentId: payment.id };
    },

    async parseWebhook({ rawBody, sourceIp }) {
      if (!isTrustedSource(sourceIp)) return null;
      let json: unknown;
      try {
        json = JSON.parse(rawBody);
      } catch {
        return null;
      }
      const parsed = ZNotification.safeParse(json);
      if (!parsed.success) return null;
      const { event, object } = parsed.data;
      // The notification only says where to look: YooKassa's own record is what counts.
      try {
        if (event.startsWith('payment.')) {
          const fetched = eventOf(await getPayment(object.id));
          return fetched ? [fetched] : [];
        }
        if (event === 'refund.succeeded') {
          const refund = await call('GET', `/refunds/${encodeURIComponent(object.id)}`, ZRefund);
          if (refund.status !== 'succeeded') return [];
          const payment = await getPayment(refund.payment_id);
          return [
            {
              type: 'refund.succeeded',
              eventId: `refund:${refund.id}`,
              orderUuid: payment.metadata?.order_id ?? null,
              providerPaymentId: payment.id,
              amount: decimalToMinor(payment.amount.value),
              currency: currencyNumeric(payment.amount.currency),
              // The payment's own total refunded: a partial refund is less than its amount.
              ...(payment.refunded_amount
                ? { refundedAmount: decimalToMinor(payment.refunded_amount.value) }
                : {}),
            },
          ];
        }
      } catch (error) {
        if (error instanceof YooKassaError && error.status === 404) return null;
        throw error;
      }
      return [];
    },

    async fetchPayment(order) {
      if (!order.providerPaymentId) return null;
      return eventOf(await getPayment(order.providerPaymentId));
    },

    async refund(order) {
      // The rest of the payment, or the part asked for; the receipt is of the money returned.
      const returned = { ...order, amount: order.refundAmount ?? order.amount - order.alreadyRefunded };
      await call(
        'POST',
        '/refunds',
        ZRefund,
        { payment_id: order.providerPaymentId, amount: amountOf(returned), ...receiptOf(returned) },
        // One refund request per state of the payment: a retry repeats it, a later one is new.
        `refund:${order.uuid}:${order.alreadyRefunded}`,
      );
    },

    async chargeSavedMethod(order, savedMethodId) {
      const payment = await call(
        'POST',
        '/payments',
        ZPayment,
        {
          amount: amountOf(order),
          capture: true,
          payment_method_id: savedMethodId,
          description: order.description.slice(0, 128),
          metadata: { order_id: order.uuid, user_id: String(order.userId) },
          ...receiptOf(order),
        },
        `payment:${order.uuid}`,
      );
      return { providerPaymentId: payment.id, event: eventOf(payment) };
    },
  };
}
