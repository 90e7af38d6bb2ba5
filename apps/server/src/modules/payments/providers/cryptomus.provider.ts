import { createHash, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { CURRENCY_RUB, CURRENCY_USD } from '@mirra/contracts';
import type { PaymentEvent, PaymentProvider } from '../payment-provider.js';
import { currencyAlpha, currencyNumeric, decimalToMinor, minorToDecimal } from '../money.js';

export interface CryptomusConfig {
  merchantId: string;
  apiKey: string;
  apiBase: string;
  /** Where Cryptomus posts its callbacks (Mirra's webhook route). */
  callbackUrl: string;
}

/**
 * JSON as PHP's `json_encode` writes it with default flags, which is what Cryptomus signs: `/` is
 * escaped as `\/`, and every character outside ASCII as a `\uXXXX` escape (lower-case hex).
 */
export function phpJsonEncode(value: unknown): string {
  return JSON.stringify(value)
    .replace(/\//g, '\\/')
    .replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Cryptomus's signature of a body: md5 of its base64 plus the API key, hex. */
export function cryptomusSign(json: string, apiKey: string): string {
  return createHash('md5')
    .update(Buffer.from(json, 'utf8').toString('base64') + apiKey)
    .digest('hex');
}

/** Statuses after which a Cryptomus payment changes no more, and what each means for the order. */
const FINAL_STATUS_EVENTS: Record<string, PaymentEvent['type']> = {
  paid: 'payment.succeeded',
  paid_over: 'payment.succeeded',
  fail: 'payment.failed',
  wrong_amount: 'payment.failed',
  system_fail: 'payment.failed',
  cancel: 'payment.cancelled',
  refund_paid: 'refund.succeeded',
};

const ZCallback = z
  .object({
    type: z.string(),
    uuid: z.string().min(1),
    order_id: z.string().min(1),
    amount: z.string(),
    status: z.string(),
    is_final: z.boolean(),
    currency: z.string(),
    sign: z.string().regex(/^[0-9a-f]{32}$/),
  })
  .loose();
const ZInvoice = z
  .object({
    uuid: z.string(),
    order_id: z.string(),
    amount: z.string(),
    currency: z.string(),
    url: z.string(),
    payment_status: z.string().optional(),
    status: z.string().optional(),
    is_final: z.boolean(),
    from: z.string().nullish(),
  })
  .loose();

/**
 * Cryptomus invoices: created with the order's uuid as `order_id` (Cryptomus returns the existing
 * invoice for a repeated one, so a retry never makes two), paid on its page; callbacks verified as
 * Cryptomus signs them, and a payment counts only in a final paid status.
 */
export function createCryptomusProvider(
  config: CryptomusConfig,
  options: { fetch?: typeof fetch } = {},
): PaymentProvider {
  const doFetch = options.fetch ?? fetch;

  async function call(path: string, body: Record<string, unknown>) {
    const json = phpJsonEncode(body);
    const response = await doFetch(`${config.apiBase}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        merchant: config.merchantId,
        sign: cryptomusSign(json, config.apiKey),
      },
      body: json,
      signal: AbortSignal.timeout(15_000),
    });
    const answer = (await response.json().catch(() => null)) as {
      state?: number;
      result?: unknown;
      message?: string;
    } | null;
    if (!response.ok || answer?.state !== 0) {
      throw new Error(`Cryptomus ${path}: HTTP ${response.status} ${answer?.message ?? ''}`.trim());
    }
    return answer.result;
  }
  const invoiceCall = async (path: string, body: Record<string, unknown>) =>
    ZInvoice.parse(await call(path, body));

  const eventOf = (
    invoice: { uuid: string; order_id: string; amount: string; currency: string; is_final: boolean },
    status: string,
  ): PaymentEvent | null => {
    const type = FINAL_STATUS_EVENTS[status];
    // Refund statuses come after the payment was final; everything else counts only when final.
    if (!type || (!invoice.is_final && type !== 'refund.succeeded')) return null;
    return {
      type,
      eventId: `${invoice.uuid}:${status}`,
      orderUuid: invoice.order_id,
      providerPaymentId: invoice.uuid,
      amount: decimalToMinor(invoice.amount),
      currency: currencyNumeric(invoice.currency),
    };
  };

  const info = (order: { uuid: string; providerPaymentId: string | null }) =>
    invoiceCall(
      '/v1/payment/info',
      order.providerPaymentId ? { uuid: order.providerPaymentId } : { order_id: order.uuid },
    );

  return {
    name: 'cryptomus',
    capabilities: {
      methods: ['cryptomus'],
      // An invoice in either currency, paid in cryptocurrency.
      regions: ['ru', 'intl'],
      currencies: [CURRENCY_RUB, CURRENCY_USD],
      miniAppOnly: false,
      receiptEmail: false,
      // A crypto payment is one-off: nothing is kept to charge again.
      recurring: 'none',
      trialMethods: [],
      partialRefunds: false,
      refundsAtOnce: false,
      movesMoney: true,
      invoicePageMethods: [],
    },

    async createPayment(order) {
      const invoice = await invoiceCall('/v1/payment', {
        amount: minorToDecimal(order.amount),
        currency: currencyAlpha(order.currency),
        order_id: order.uuid,
        url_return: order.returnUrl,
        url_success: order.returnUrl,
        url_callback: config.callbackUrl,
        lifetime: 3600,
        additional_data: order.description.slice(0, 255),
      });
      return { confirmationUrl: invoice.url, providerPaymentId: invoice.uuid };
    },

    async parseWebhook({ rawBody }) {
      let json: unknown;
      try {
        json = JSON.parse(rawBody);
      } catch {
        return null;
      }
      if (!json || typeof json !== 'object' || Array.isArray(json)) return null;
      const { sign, ...unsigned } = json as Record<string, unknown>;
      if (typeof sign !== 'string' || !/^[0-9a-f]{32}$/.test(sign)) return null;
      // Signed over the body without `sign`, re-encoded as PHP encodes it, keys in the order received.
      const expected = cryptomusSign(phpJsonEncode(unsigned), config.apiKey);
      if (!timingSafeEqual(Buffer.from(sign), Buffer.from(expected))) return null;
      const parsed = ZCallback.safeParse(json);
      if (!parsed.success || parsed.data.type !== 'payment') return parsed.success ? [] : null;
      const event = eventOf(parsed.data, parsed.data.status);
      return event ? [event] : [];
    },

    async fetchPayment(order) {
      const invoice = await info(order);
      return eventOf(invoice, invoice.payment_status ?? invoice.status ?? '');
    },

    async refund(order) {
      // Cryptomus returns coins to an address: the one the buyer paid from.
      const invoice = await info(order);
      if (!invoice.from) throw new Error('Cryptomus knows no address the payment came from');
      await call('/v1/payment/refund', { uuid: invoice.uuid, address: invoice.from, is_subtract: true });
    },
  };
}
