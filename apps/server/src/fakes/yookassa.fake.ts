import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  closeFakeServer,
  deliverNotification,
  readBody,
  redirect,
  renderCheckoutPage,
  sendHtml,
  sendJson,
} from './payment-fake-http.js';

interface Amount {
  value: string;
  currency: string;
}

export interface FakeYooKassaPayment {
  id: string;
  status: 'pending' | 'waiting_for_capture' | 'succeeded' | 'canceled';
  paid: boolean;
  amount: Amount;
  description?: string;
  created_at: string;
  metadata: Record<string, string>;
  confirmation?: { type: 'redirect'; return_url: string; confirmation_url: string };
  payment_method?: { type: string; id: string; saved: boolean };
  cancellation_details?: { party: string; reason: string };
  refundable: boolean;
  refunded_amount?: Amount;
  test: true;
  /** The 54-FZ receipt as sent (YooKassa keeps it for the fiscal data operator). */
  receipt?: unknown;
  save_payment_method?: boolean;
  /** `false`: a two-stage payment, held until captured or cancelled. */
  capture?: boolean;
}

export interface FakeYooKassaRefund {
  id: string;
  payment_id: string;
  status: 'succeeded';
  amount: Amount;
  created_at: string;
}

export interface YooKassaFake {
  /** YOOKASSA_API_BASE (…/v3). */
  apiBase: string;
  shopId: string;
  secretKey: string;
  env: Record<string, string>;
  payments: Map<string, FakeYooKassaPayment>;
  refunds: Map<string, FakeYooKassaRefund>;
  /** Where notifications go (the shop's setting in YooKassa's cabinet). */
  setWebhookUrl(url: string | null): void;
  /** Every notification sent and the status the shop answered. */
  notifications: Array<{ event: string; objectId: string; status: number }>;
  /** Plays the buyer on the checkout page: pay, decline the card, or cancel. */
  act(paymentId: string, action: 'pay' | 'decline' | 'cancel'): Promise<void>;
  /** Methods saved earlier whose next charge is refused (an expired card). */
  declineSavedMethod(methodId: string): void;
  close(): Promise<void>;
}

const error = (status: number, code: string, description: string, parameter?: string) => ({
  status,
  body: {
    type: 'error',
    id: randomUUID(),
    code,
    description,
    ...(parameter ? { parameter } : {}),
  },
});

/**
 * A local stand-in for YooKassa's API v3 (https://api.yookassa.ru/v3) and its payment page: Basic
 * authentication with the shop id and secret key, `Idempotence-Key` on every POST (a repeat with
 * the same body answers the first result, another body `Idempotence key duplicated`), payments
 * with `confirmation.type: redirect`, saved methods (`save_payment_method`, `payment_method_id`),
 * refunds, the error shape and status codes YooKassa uses, and HTTP notifications
 * (`{type: notification, event, object}`, no signature) posted to the shop's URL.
 */
export async function startYooKassaFake(
  options: {
    host?: string;
    port?: number;
    webhookUrl?: string | null;
    /** Kept between runs by `npm run fakes`, so the app started with them keeps working. */
    shopId?: string;
    secretKey?: string;
  } = {},
): Promise<YooKassaFake> {
  const shopId = options.shopId ?? String(100000 + Math.floor(Math.random() * 800000));
  const secretKey = options.secretKey ?? `test_${randomBytes(24).toString('base64url')}`;
  const payments = new Map<string, FakeYooKassaPayment>();
  const refunds = new Map<string, FakeYooKassaRefund>();
  const idempotence = new Map<string, { body: string; status: number; response: unknown }>();
  const declinedMethods = new Set<string>();
  const notifications: YooKassaFake['notifications'] = [];
  let webhookUrl = options.webhookUrl ?? null;
  let base = '';

  const notify = async (event: string, object: { id: string }) => {
    if (!webhookUrl) return;
    const status = await deliverNotification(
      webhookUrl,
      JSON.stringify({ type: 'notification', event, object }),
      {},
    );
    notifications.push({ event, objectId: object.id, status });
  };

  const authorized = (header: string | undefined) =>
    header === `Basic ${Buffer.from(`${shopId}:${secretKey}`).toString('base64')}`;

  function createPayment(body: Record<string, unknown>): { status: number; body: unknown } {
    const amount = body.amount as Amount | undefined;
    if (!amount || !/^\d+\.\d{2}$/.test(String(amount.value)) || !['RUB', 'USD'].includes(amount.currency)) {
      return error(400, 'invalid_request', 'Invalid amount', 'amount');
    }
    const id = `${randomBytes(4).toString('hex')}-000f-5000-9000-${randomBytes(6).toString('hex')}`;
    const now = new Date().toISOString();
    const metadata = (body.metadata as Record<string, string> | undefined) ?? {};
    const savedId = typeof body.payment_method_id === 'string' ? body.payment_method_id : null;
    if (savedId) {
      const saved = [...payments.values()].find(
        (p) => p.payment_method?.id === savedId && p.payment_method.saved,
      );
      if (!saved) return error(400, 'invalid_request', 'Payment method not found', 'payment_method_id');
      const declined = declinedMethods.has(savedId);
      const payment: FakeYooKassaPayment = {
        id,
        status: declined ? 'canceled' : 'succeeded',
        paid: !declined,
        amount,
        ...(typeof body.description === 'string' ? { description: body.description } : {}),
        created_at: now,
        metadata,
        payment_method: { ...saved.payment_method! },
        ...(declined ? { cancellation_details: { party: 'payment_network', reason: 'card_expired' } } : {}),
        refundable: !declined,
        test: true,
        ...(body.receipt ? { receipt: body.receipt } : {}),
      };
      payments.set(id, payment);
      void notify(declined ? 'payment.canceled' : 'payment.succeeded', payment);
      return { status: 200, body: payment };
    }
    const confirmation = body.confirmation as { type?: string; return_url?: string } | undefined;
    if (confirmation?.type !== 'redirect' || !confirmation.return_url) {
      return error(
        400,
        'invalid_request',
        'Confirmation type redirect with return_url is required',
        'confirmation',
      );
    }
    const methodType = (body.payment_method_data as { type?: string } | undefined)?.type ?? 'bank_card';
    if (!['bank_card', 'sberbank', 'sbp', 'yoo_money'].includes(methodType)) {
      return error(400, 'invalid_request', 'Invalid payment method type', 'payment_method_data.type');
    }
    const payment: FakeYooKassaPayment = {
      id,
      status: 'pending',
      paid: false,
      amount,
      ...(typeof body.description === 'string' ? { description: body.description } : {}),
      created_at: now,
      metadata,
      confirmation: {
        type: 'redirect',
        return_url: confirmation.return_url,
        confirmation_url: `${base}/checkout/${id}`,
      },
      payment_method: { type: methodType, id: randomUUID(), saved: false },
      refundable: false,
      test: true,
      // Two-stage: paid means held (`waiting_for_capture`) until captured or cancelled.
      ...(body.capture === false ? { capture: false } : {}),
      ...(body.receipt ? { receipt: body.receipt } : {}),
      ...(body.save_payment_method === true ? { save_payment_method: true } : {}),
    };
    payments.set(id, payment);
    return { status: 200, body: payment };
  }

  function createRefund(body: Record<string, unknown>): { status: number; body: unknown } {
    const payment = payments.get(String(body.payment_id));
    if (!payment) return error(404, 'not_found', 'Payment not found', 'payment_id');
    if (payment.status !== 'succeeded' || !payment.refundable) {
      return error(400, 'invalid_request', 'Payment is not refundable', 'payment_id');
    }
    // A refund of part of the payment leaves the rest refundable; refunds add up on the payment.
    const toMinor = (a: Amount) => Math.round(Number(a.value) * 100);
    const amount = (body.amount as Amount | undefined) ?? payment.amount;
    const already = payment.refunded_amount ? toMinor(payment.refunded_amount) : 0;
    const total = already + toMinor(amount);
    if (!(toMinor(amount) > 0) || total > toMinor(payment.amount)) {
      return error(400, 'invalid_request', 'Refund amount exceeds the refundable amount', 'amount');
    }
    const refund: FakeYooKassaRefund = {
      id: `${randomBytes(4).toString('hex')}-0015-5000-8000-${randomBytes(6).toString('hex')}`,
      payment_id: payment.id,
      status: 'succeeded',
      amount,
      created_at: new Date().toISOString(),
    };
    refunds.set(refund.id, refund);
    payment.refundable = total < toMinor(payment.amount);
    payment.refunded_amount = { value: (total / 100).toFixed(2), currency: payment.amount.currency };
    void notify('refund.succeeded', refund);
    return { status: 200, body: refund };
  }

  /** `POST /payments/{id}/cancel`: a held payment is released; the method it saved stays saved. */
  function cancelPayment(paymentId: string): { status: number; body: unknown } {
    const payment = payments.get(paymentId);
    if (!payment) return error(404, 'not_found', 'Payment not found');
    if (payment.status !== 'waiting_for_capture') {
      return error(400, 'invalid_request', 'Payment is not in waiting_for_capture status', 'payment_id');
    }
    payment.status = 'canceled';
    payment.paid = false;
    payment.cancellation_details = { party: 'merchant', reason: 'canceled_by_merchant' };
    void notify('payment.canceled', payment);
    return { status: 200, body: payment };
  }

  async function act(paymentId: string, action: 'pay' | 'decline' | 'cancel') {
    const payment = payments.get(paymentId);
    if (!payment || payment.status !== 'pending') return;
    if (action === 'pay') {
      const held = payment.capture === false;
      payment.status = held ? 'waiting_for_capture' : 'succeeded';
      payment.paid = true;
      payment.refundable = !held;
      if (payment.save_payment_method && payment.payment_method) payment.payment_method.saved = true;
      await notify(held ? 'payment.waiting_for_capture' : 'payment.succeeded', payment);
    } else {
      payment.status = 'canceled';
      payment.cancellation_details =
        action === 'decline'
          ? { party: 'payment_network', reason: 'insufficient_funds' }
          : { party: 'yoo_money', reason: 'expired_on_confirmation' };
      await notify('payment.canceled', payment);
    }
  }

  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://fake');
      const raw = await readBody(request);
      const checkout = /^\/checkout\/([\w-]+)$/.exec(url.pathname);
      if (checkout) {
        const payment = payments.get(checkout[1]!);
        if (!payment) return sendJson(response, 404, { error: 'not found' });
        if (request.method === 'POST') {
          const action = new URLSearchParams(raw).get('action');
          if (action === 'pay' || action === 'decline' || action === 'cancel') await act(payment.id, action);
          return redirect(response, payment.confirmation!.return_url);
        }
        const label = { bank_card: 'Bank card', sberbank: 'SberPay', sbp: 'SBP' }[
          payment.payment_method?.type ?? ''
        ];
        return sendHtml(
          response,
          renderCheckoutPage({
            provider: 'YooKassa',
            title: 'YooKassa — payment',
            amount: `${payment.amount.value} ${payment.amount.currency}`,
            description: `${payment.description ?? ''} · ${label ?? payment.payment_method?.type}`,
            status: payment.status,
            actions:
              payment.status === 'pending'
                ? [
                    { action: 'pay', label: 'Pay' },
                    { action: 'decline', label: 'Decline card' },
                    { action: 'cancel', label: 'Cancel' },
                  ]
                : [],
            backUrl: payment.confirmation?.return_url,
          }),
        );
      }

      if (!url.pathname.startsWith('/v3/'))
        return sendJson(response, 404, error(404, 'not_found', 'Not found').body);
      if (!authorized(request.headers.authorization)) {
        const e = error(401, 'invalid_credentials', 'Authentication by given credentials failed');
        return sendJson(response, e.status, e.body);
      }
      const path = url.pathname.slice(3);
      if (request.method === 'POST') {
        const key = request.headers['idempotence-key'];
        if (typeof key !== 'string' || !key || key.length > 64) {
          const e = error(400, 'invalid_request', 'Idempotence key is missing or invalid', 'Idempotence-Key');
          return sendJson(response, e.status, e.body);
        }
        let body: Record<string, unknown>;
        try {
          body = JSON.parse(raw) as Record<string, unknown>;
        } catch {
          const e = error(400, 'invalid_request', 'Request body is not valid JSON');
          return sendJson(response, e.status, e.body);
        }
        const stored = idempotence.get(`${path}:${key}`);
        if (stored) {
          if (stored.body !== raw) {
            const e = error(400, 'invalid_request', 'Idempotence key duplicated', 'Idempotence-Key');
            return sendJson(response, e.status, e.body);
          }
          return sendJson(response, stored.status, stored.response);
        }
        const cancel = /^\/payments\/([\w-]+)\/cancel$/.exec(path);
        const result =
          path === '/payments'
            ? createPayment(body)
            : path === '/refunds'
              ? createRefund(body)
              : cancel
                ? cancelPayment(cancel[1]!)
                : null;
        if (!result) return sendJson(response, 404, error(404, 'not_found', 'Not found').body);
        idempotence.set(`${path}:${key}`, { body: raw, status: result.status, response: result.body });
        return sendJson(response, result.status, result.body);
      }
      const payment = /^\/payments\/([\w-]+)$/.exec(path);
      if (request.method === 'GET' && payment) {
        const found = payments.get(payment[1]!);
        if (!found) return sendJson(response, 404, error(404, 'not_found', 'Payment not found').body);
        return sendJson(response, 200, found);
      }
      const refund = /^\/refunds\/([\w-]+)$/.exec(path);
      if (request.method === 'GET' && refund) {
        const found = refunds.get(refund[1]!);
        if (!found) return sendJson(response, 404, error(404, 'not_found', 'Refund not found').body);
        return sendJson(response, 200, found);
      }
      return sendJson(response, 404, error(404, 'not_found', 'Not found').body);
    })().catch((e: unknown) => sendJson(response, 500, error(500, 'internal_server_error', String(e)).body));
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const { port } = server.address() as AddressInfo;
  base = `http://${options.host ?? '127.0.0.1'}:${port}`;
  return {
    apiBase: `${base}/v3`,
    shopId,
    secretKey,
    env: {
      YOOKASSA_SHOP_ID: shopId,
      YOOKASSA_SECRET_KEY: secretKey,
      YOOKASSA_API_BASE: `${base}/v3`,
      // The fake posts from this machine, so the shop must trust it instead of YooKassa's networks.
      YOOKASSA_WEBHOOK_NETWORKS: '127.0.0.1,::1',
    },
    payments,
    refunds,
    notifications,
    setWebhookUrl(next) {
      webhookUrl = next;
    },
    act,
    declineSavedMethod(methodId) {
      declinedMethods.add(methodId);
    },
    close: () => closeFakeServer(server),
  };
}
