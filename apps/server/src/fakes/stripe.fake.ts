import { createHmac, randomBytes } from 'node:crypto';
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

type Json = Record<string, unknown>;

export interface StripeFake {
  /** STRIPE_API_BASE. */
  url: string;
  secretKey: string;
  webhookSecret: string;
  env: Record<string, string>;
  sessions: Map<string, Json>;
  subscriptions: Map<string, Json>;
  /** Every event sent: its type, id and the status the endpoint answered. */
  events: Array<{ id: string; type: string; status: number; payload: string; signature: string }>;
  setWebhookUrl(url: string | null): void;
  /** Plays the buyer on the Checkout page. */
  act(sessionId: string, action: 'pay' | 'decline' | 'cancel'): Promise<void>;
  /**
   * The end of a subscription's period (or trial): the next period's invoice paid (or failed) and
   * its events sent; cancelled at the period's end, the subscription is deleted instead.
   */
  renew(subscriptionId: string, outcome?: 'paid' | 'failed'): Promise<void>;
  /**
   * The subscription changed at Stripe (the customer portal, the Dashboard, Stripe's own retries):
   * `cancel_at_period_end` and `status` set, then `customer.subscription.updated` sent — or
   * `customer.subscription.deleted` when it became `canceled`, as Stripe does.
   */
  change(subscriptionId: string, changes: { cancel_at_period_end?: boolean; status?: string }): Promise<void>;
  /**
   * The buyer's bank disputes the charge of a PaymentIntent (a chargeback): the charge is marked
   * disputed and `charge.dispute.created` sent; then, closed `won` or `lost`,
   * `charge.dispute.closed`. Answers the dispute's id.
   */
  dispute(paymentIntent: string, outcome: 'won' | 'lost' | null): Promise<string>;
  /** Closes an open dispute (`charge.dispute.closed` with `won` or `lost`). */
  closeDispute(disputeId: string, outcome: 'won' | 'lost'): Promise<void>;
  /** Sends an event as Stripe would (signed); returns the endpoint's answer status. */
  sendEvent(type: string, object: Json): Promise<number>;
  close(): Promise<void>;
}

const id = (prefix: string) =>
  `${prefix}_test_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Parses `a[b][0][c]=v` form bodies, as stripe-node encodes its parameters, into nested objects. */
export function parseStripeForm(body: string): Json {
  const out: Json = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> = out;
    path.forEach((part, i) => {
      if (i === path.length - 1) node[part] = value;
      else node = (node[part] ??= /^\d+$/.test(path[i + 1]!) ? {} : {}) as Record<string, unknown>;
    });
  }
  return out;
}

const list = (node: unknown): Json[] =>
  node && typeof node === 'object' ? Object.values(node as Record<string, Json>) : [];

const stripeError = (status: number, type: string, message: string, param?: string) => ({
  status,
  body: { error: { type, message, ...(param ? { param } : {}) } },
});

/**
 * A local stand-in for the Stripe API as the official SDK calls it (form-encoded bodies, Bearer
 * secret key, `Idempotency-Key` replayed for the same parameters and refused for others) and for
 * the hosted Checkout page: sessions in `payment` and `subscription` mode, refunds, subscription
 * updates, and events (`checkout.session.completed`, `invoice.paid`, `invoice.payment_failed`,
 * `customer.subscription.updated/deleted`, `charge.refunded`, `charge.dispute.created/closed`)
 * signed with the endpoint secret in
 * `Stripe-Signature: t=…,v1=…`, as Stripe signs them.
 */
export async function startStripeFake(
  options: {
    host?: string;
    port?: number;
    webhookUrl?: string | null;
    /** Kept between runs by `npm run fakes`, so the app started with them keeps working. */
    secretKey?: string;
    webhookSecret?: string;
  } = {},
): Promise<StripeFake> {
  const secretKey = options.secretKey ?? `sk_test_${randomBytes(24).toString('hex')}`;
  const webhookSecret = options.webhookSecret ?? `whsec_${randomBytes(24).toString('base64url')}`;
  const sessions = new Map<string, Json>();
  const subscriptions = new Map<string, Json>();
  const charges = new Map<string, Json>();
  const invoices = new Map<string, Json>();
  const idempotency = new Map<string, { body: string; status: number; response: unknown }>();
  const events: StripeFake['events'] = [];
  let webhookUrl = options.webhookUrl ?? null;
  let base = '';

  async function sendEvent(type: string, object: Json): Promise<number> {
    const event = {
      id: id('evt'),
      object: 'event',
      api_version: '2026-10-28.endive',
      created: nowSeconds(),
      type,
      livemode: false,
      pending_webhooks: 1,
      data: { object },
    };
    const payload = JSON.stringify(event, null, 2);
    const t = nowSeconds();
    const v1 = createHmac('sha256', webhookSecret).update(`${t}.${payload}`).digest('hex');
    const signature = `t=${t},v1=${v1}`;
    const status = webhookUrl
      ? await deliverNotification(webhookUrl, payload, { 'stripe-signature': signature })
      : 0;
    events.push({ id: event.id, type, status, payload, signature });
    return status;
  }

  function createSession(params: Json): { status: number; body: unknown } {
    const mode = params.mode as string;
    if (mode !== 'payment' && mode !== 'subscription') {
      return stripeError(400, 'invalid_request_error', 'Invalid mode', 'mode');
    }
    const items = list(params.line_items);
    if (items.length !== 1)
      return stripeError(400, 'invalid_request_error', 'line_items is required', 'line_items');
    const priceData = items[0]!.price_data as Json | undefined;
    const amount = Number(priceData?.unit_amount);
    const currency = String(priceData?.currency ?? '');
    if (!priceData || !Number.isInteger(amount) || !currency) {
      return stripeError(400, 'invalid_request_error', 'price_data is invalid', 'line_items[0][price_data]');
    }
    if (mode === 'subscription' && !priceData.recurring) {
      return stripeError(
        400,
        'invalid_request_error',
        'You must provide at least one recurring price in `subscription` mode when using prices.',
        'line_items',
      );
    }
    if (!params.success_url)
      return stripeError(400, 'invalid_request_error', 'Missing success_url', 'success_url');
    const subscriptionData = params.subscription_data as Json | undefined;
    const trialDays =
      subscriptionData?.trial_period_days === undefined ? 0 : Number(subscriptionData.trial_period_days);
    if (
      trialDays &&
      (mode !== 'subscription' || !Number.isInteger(trialDays) || trialDays < 1 || trialDays > 730)
    ) {
      return stripeError(
        400,
        'invalid_request_error',
        'Invalid subscription_data[trial_period_days]',
        'subscription_data[trial_period_days]',
      );
    }
    const session: Json = {
      id: id('cs'),
      object: 'checkout.session',
      mode,
      status: 'open',
      payment_status: 'unpaid',
      url: '',
      success_url: params.success_url,
      cancel_url: params.cancel_url ?? null,
      client_reference_id: params.client_reference_id ?? null,
      customer: null,
      customer_email: params.customer_email ?? null,
      // A trial charges nothing at checkout: the card is collected for the charges after it.
      amount_total: trialDays ? 0 : amount,
      currency,
      metadata: (params.metadata as Json | undefined) ?? {},
      payment_intent: null,
      subscription: null,
      invoice: null,
      created: nowSeconds(),
      expires_at: nowSeconds() + 86_400,
      _product: ((priceData.product_data as Json | undefined)?.name as string | undefined) ?? '',
      _recurring: priceData.recurring ?? null,
      _unit_amount: amount,
      _trial_days: trialDays,
      _payment_intent_metadata: ((params.payment_intent_data as Json | undefined)?.metadata as Json) ?? {},
      _subscription_metadata: ((params.subscription_data as Json | undefined)?.metadata as Json) ?? {},
    };
    session.url = `${base}/c/pay/${session.id as string}`;
    sessions.set(session.id as string, session);
    return { status: 200, body: publicOf(session) };
  }

  const publicOf = (object: Json) =>
    Object.fromEntries(Object.entries(object).filter(([k]) => !k.startsWith('_')));

  function subscriptionObject(sub: Json): Json {
    return publicOf(sub);
  }

  /**
   * `POST /v1/checkout/sessions/:id/expire`: an open session can no longer be paid and
   * `checkout.session.expired` is sent; any other status is refused, as Stripe does.
   */
  function expireSession(sessionId: string): { status: number; body: Json } {
    const session = sessions.get(sessionId);
    if (!session)
      return stripeError(404, 'invalid_request_error', `No such checkout.session: '${sessionId}'`);
    if (session.status !== 'open') {
      return stripeError(
        400,
        'invalid_request_error',
        `Only Checkout Sessions with a status of \`open\` can be expired. This session has a status of \`${String(session.status)}\`.`,
      );
    }
    session.status = 'expired';
    void sendEvent('checkout.session.expired', publicOf(session));
    return { status: 200, body: publicOf(session) };
  }

  async function act(sessionId: string, action: 'pay' | 'decline' | 'cancel') {
    const session = sessions.get(sessionId);
    if (!session || session.status !== 'open') return;
    if (action === 'decline') {
      session._error = 'Your card was declined.';
      return;
    }
    if (action === 'cancel') return;
    session.status = 'complete';
    session.payment_status = 'paid';
    session.customer = id('cus');
    let firstInvoice: Json | null = null;
    if (session.mode === 'payment') {
      session.payment_intent = chargeFor(session.amount_total as number, session.currency as string);
    } else {
      const trialDays = session._trial_days as number;
      if (trialDays) session.payment_status = 'no_payment_required';
      const periodEnd = nowSeconds() + (trialDays || 30) * 86_400;
      const subscription: Json = {
        id: id('sub'),
        object: 'subscription',
        status: trialDays ? 'trialing' : 'active',
        trial_end: trialDays ? periodEnd : null,
        customer: session.customer,
        cancel_at_period_end: false,
        metadata: session._subscription_metadata,
        items: {
          object: 'list',
          data: [
            {
              id: id('si'),
              current_period_start: nowSeconds(),
              current_period_end: periodEnd,
              price: {
                unit_amount: session._unit_amount,
                currency: session.currency,
                recurring: session._recurring,
              },
            },
          ],
        },
      };
      subscriptions.set(subscription.id as string, subscription);
      session.subscription = subscription.id;
      firstInvoice = invoiceOf(subscription, 'subscription_create', 'paid', trialDays ? 0 : undefined);
      session.invoice = firstInvoice.id;
    }
    await sendEvent('checkout.session.completed', publicOf(session));
    if (firstInvoice) await sendEvent('invoice.paid', firstInvoice);
  }

  /** A successful charge of `amount` through a new PaymentIntent; answers the PaymentIntent's id. */
  function chargeFor(amount: number, currency: string): string {
    const chargeId = id('ch');
    const paymentIntent = id('pi');
    charges.set(chargeId, {
      id: chargeId,
      object: 'charge',
      amount,
      amount_refunded: 0,
      refunded: false,
      currency,
      payment_intent: paymentIntent,
      metadata: {},
    });
    return paymentIntent;
  }

  /** An invoice of a subscription period; a paid one is paid by a PaymentIntent of its own. */
  function invoiceOf(sub: Json, reason: string, outcome: 'paid' | 'failed', amount?: number): Json {
    const item = (sub.items as { data: Json[] }).data[0]!;
    const price = item.price as Json;
    const due = amount ?? (price.unit_amount as number);
    const invoiceId = id('in');
    // An invoice of nothing (a trial's first) is paid without a charge.
    const paymentIntent = outcome === 'paid' && due > 0 ? chargeFor(due, price.currency as string) : null;
    const invoice: Json = {
      id: invoiceId,
      object: 'invoice',
      billing_reason: reason,
      status: outcome === 'paid' ? 'paid' : 'open',
      amount_due: due,
      amount_paid: outcome === 'paid' ? due : 0,
      currency: price.currency,
      customer: sub.customer,
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: sub.id, metadata: sub.metadata },
      },
      lines: {
        object: 'list',
        data: [{ period: { start: item.current_period_start, end: item.current_period_end } }],
      },
      _payment_intent: paymentIntent,
    };
    invoices.set(invoiceId, invoice);
    return publicOf(invoice);
  }

  /** `GET /v1/invoice_payments`: by `invoice`, or by `payment[payment_intent]`. */
  function listInvoicePayments(query: URLSearchParams): Json {
    const byInvoice = query.get('invoice');
    const byIntent = query.get('payment[payment_intent]');
    const data = [...invoices.values()]
      .filter((inv) => inv._payment_intent)
      .filter((inv) => (byInvoice ? inv.id === byInvoice : true))
      .filter((inv) => (byIntent ? inv._payment_intent === byIntent : true))
      .map((inv) => ({
        id: `inpay_${(inv.id as string).slice(3)}`,
        object: 'invoice_payment',
        invoice: inv.id,
        is_default: true,
        amount_paid: inv.amount_paid,
        currency: inv.currency,
        status: 'paid',
        payment: { type: 'payment_intent', payment_intent: inv._payment_intent },
      }));
    return { object: 'list', data, has_more: false, url: '/v1/invoice_payments' };
  }

  async function renew(subscriptionId: string, outcome: 'paid' | 'failed' = 'paid') {
    const sub = subscriptions.get(subscriptionId);
    if (!sub || sub.status === 'canceled') return;
    const item = (sub.items as { data: Json[] }).data[0]!;
    // Cancelled at the period's (or the trial's) end: it ends now, and nothing is charged.
    if (sub.cancel_at_period_end) {
      sub.status = 'canceled';
      await sendEvent('customer.subscription.deleted', subscriptionObject(sub));
      return;
    }
    if (outcome === 'paid') {
      // The trial's end starts the paid periods.
      if (sub.status === 'trialing') sub.status = 'active';
      item.current_period_start = item.current_period_end;
      item.current_period_end = (item.current_period_end as number) + 30 * 86_400;
      await sendEvent('invoice.paid', invoiceOf(sub, 'subscription_cycle', 'paid'));
    } else {
      sub.status = 'past_due';
      await sendEvent('invoice.payment_failed', invoiceOf(sub, 'subscription_cycle', 'failed'));
      await sendEvent('customer.subscription.updated', subscriptionObject(sub));
    }
  }

  async function change(
    subscriptionId: string,
    changes: { cancel_at_period_end?: boolean; status?: string },
  ) {
    const sub = subscriptions.get(subscriptionId);
    if (!sub) throw new Error(`No such subscription: ${subscriptionId}`);
    if (changes.cancel_at_period_end !== undefined) sub.cancel_at_period_end = changes.cancel_at_period_end;
    if (changes.status !== undefined) sub.status = changes.status;
    await sendEvent(
      sub.status === 'canceled' ? 'customer.subscription.deleted' : 'customer.subscription.updated',
      subscriptionObject(sub),
    );
  }

  const disputes = new Map<string, Json>();

  /** A Dispute object as Stripe sends it in `charge.dispute.*` events. */
  async function dispute(paymentIntent: string, outcome: 'won' | 'lost' | null): Promise<string> {
    const charge = [...charges.values()].find((c) => c.payment_intent === paymentIntent);
    if (!charge) throw new Error(`No charge for ${paymentIntent}`);
    charge.disputed = true;
    const object: Json = {
      id: id('dp'),
      object: 'dispute',
      amount: charge.amount,
      currency: charge.currency,
      charge: charge.id,
      payment_intent: paymentIntent,
      reason: 'fraudulent',
      status: 'needs_response',
      is_charge_refundable: false,
      created: nowSeconds(),
      livemode: false,
      metadata: {},
    };
    disputes.set(object.id as string, object);
    await sendEvent('charge.dispute.created', { ...object });
    if (outcome) await closeDispute(object.id as string, outcome);
    return object.id as string;
  }

  async function closeDispute(disputeId: string, outcome: 'won' | 'lost') {
    const object = disputes.get(disputeId);
    if (!object) throw new Error(`No such dispute: ${disputeId}`);
    object.status = outcome;
    await sendEvent('charge.dispute.closed', { ...object });
  }

  function createRefund(params: Json): { status: number; body: unknown } {
    const intent = params.payment_intent as string | undefined;
    const charge = [...charges.values()].find((c) => c.payment_intent === intent);
    if (!charge) {
      return stripeError(
        404,
        'invalid_request_error',
        `No such payment_intent: '${intent}'`,
        'payment_intent',
      );
    }
    if (charge.refunded) {
      return stripeError(
        400,
        'invalid_request_error',
        `Charge ${charge.id as string} has already been refunded.`,
      );
    }
    // `amount` refunds part of the charge; unset, all that is left. Refunds add up on the charge.
    const left = (charge.amount as number) - (charge.amount_refunded as number);
    const amount = params.amount === undefined ? left : Number(params.amount);
    if (!Number.isInteger(amount) || amount <= 0 || amount > left) {
      return stripeError(
        400,
        'invalid_request_error',
        `Refund amount (${String(params.amount)}) is greater than unrefunded amount on charge (${left})`,
        'amount',
      );
    }
    charge.amount_refunded = (charge.amount_refunded as number) + amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    const refund = {
      id: id('re'),
      object: 'refund',
      amount,
      charge: charge.id,
      payment_intent: intent,
      status: 'succeeded',
      metadata: params.metadata ?? {},
    };
    void sendEvent('charge.refunded', { ...charge });
    return { status: 200, body: refund };
  }

  function updateSubscription(subId: string, params: Json): { status: number; body: unknown } {
    const sub = subscriptions.get(subId);
    if (!sub) return stripeError(404, 'invalid_request_error', `No such subscription: '${subId}'`);
    if (params.cancel_at_period_end !== undefined)
      sub.cancel_at_period_end = params.cancel_at_period_end === 'true';
    void sendEvent('customer.subscription.updated', subscriptionObject(sub));
    return { status: 200, body: subscriptionObject(sub) };
  }

  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://fake');
      const raw = await readBody(request);
      const page = /^\/c\/pay\/([\w]+)$/.exec(url.pathname);
      if (page) {
        const session = sessions.get(page[1]!);
        if (!session) return sendJson(response, 404, { error: 'not found' });
        if (request.method === 'POST') {
          const action = new URLSearchParams(raw).get('action');
          if (action === 'pay' || action === 'decline' || action === 'cancel')
            await act(session.id as string, action);
          if (action === 'pay') return redirect(response, String(session.success_url));
          if (action === 'cancel')
            return redirect(response, String(session.cancel_url ?? session.success_url));
          return redirect(response, `${base}/c/pay/${session.id as string}`);
        }
        const amount = `${((session.amount_total as number) / 100).toFixed(2)} ${String(session.currency).toUpperCase()}`;
        return sendHtml(
          response,
          renderCheckoutPage({
            provider: 'Stripe Checkout',
            title: 'Stripe Checkout',
            amount: session.mode === 'subscription' ? `${amount} / period` : amount,
            description: String(session._product),
            status: String(session.status),
            error: session._error as string | undefined,
            actions:
              session.status === 'open'
                ? [
                    { action: 'pay', label: 'Pay' },
                    { action: 'decline', label: 'Pay with a declined card' },
                    { action: 'cancel', label: 'Cancel' },
                  ]
                : [],
            backUrl: String(session.cancel_url ?? session.success_url),
          }),
        );
      }
      if (!url.pathname.startsWith('/v1/'))
        return sendJson(response, 404, { error: { message: 'Not found' } });
      if (request.headers.authorization !== `Bearer ${secretKey}`) {
        const e = stripeError(401, 'invalid_request_error', 'Invalid API Key provided');
        return sendJson(response, e.status, e.body);
      }
      const path = url.pathname.slice(3);
      if (request.method === 'POST') {
        const params = parseStripeForm(raw);
        const key = request.headers['idempotency-key'];
        const stored = typeof key === 'string' ? idempotency.get(key) : undefined;
        if (stored) {
          if (stored.body !== raw) {
            const e = stripeError(
              400,
              'idempotency_error',
              'Keys for idempotent requests can only be used with the same parameters they were first used with.',
            );
            return sendJson(response, e.status, e.body);
          }
          response.setHeader('idempotent-replayed', 'true');
          return sendJson(response, stored.status, stored.response);
        }
        const sub = /^\/subscriptions\/([\w]+)$/.exec(path);
        const expire = /^\/checkout\/sessions\/([\w]+)\/expire$/.exec(path);
        const result =
          path === '/checkout/sessions'
            ? createSession(params)
            : expire
              ? expireSession(expire[1]!)
              : path === '/refunds'
                ? createRefund(params)
                : sub
                  ? updateSubscription(sub[1]!, params)
                  : stripeError(
                      404,
                      'invalid_request_error',
                      `Unrecognized request URL (POST: ${url.pathname})`,
                    );
        // Stripe saves a result once the endpoint ran; validation errors are not saved.
        if (typeof key === 'string' && result.status < 400) {
          idempotency.set(key, { body: raw, status: result.status, response: result.body });
        }
        return sendJson(response, result.status, result.body);
      }
      const sessionPath = /^\/checkout\/sessions\/([\w]+)$/.exec(path);
      if (request.method === 'GET' && sessionPath) {
        const session = sessions.get(sessionPath[1]!);
        if (!session) {
          const e = stripeError(
            404,
            'invalid_request_error',
            `No such checkout.session: '${sessionPath[1]}'`,
          );
          return sendJson(response, e.status, e.body);
        }
        return sendJson(response, 200, publicOf(session));
      }
      if (request.method === 'GET' && path === '/invoice_payments') {
        return sendJson(response, 200, listInvoicePayments(url.searchParams));
      }
      const invoicePath = /^\/invoices\/([\w]+)$/.exec(path);
      if (request.method === 'GET' && invoicePath) {
        const invoice = invoices.get(invoicePath[1]!);
        if (!invoice) {
          const e = stripeError(404, 'invalid_request_error', `No such invoice: '${invoicePath[1]}'`);
          return sendJson(response, e.status, e.body);
        }
        return sendJson(response, 200, publicOf(invoice));
      }
      const subPath = /^\/subscriptions\/([\w]+)$/.exec(path);
      if (request.method === 'DELETE' && subPath) {
        const sub = subscriptions.get(subPath[1]!);
        if (!sub)
          return sendJson(
            response,
            404,
            stripeError(404, 'invalid_request_error', 'No such subscription').body,
          );
        sub.status = 'canceled';
        void sendEvent('customer.subscription.deleted', subscriptionObject(sub));
        return sendJson(response, 200, subscriptionObject(sub));
      }
      const e = stripeError(
        404,
        'invalid_request_error',
        `Unrecognized request URL (${request.method}: ${url.pathname})`,
      );
      return sendJson(response, e.status, e.body);
    })().catch((error: unknown) =>
      sendJson(response, 500, { error: { type: 'api_error', message: String(error) } }),
    );
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const { port } = server.address() as AddressInfo;
  base = `http://${options.host ?? '127.0.0.1'}:${port}`;
  return {
    url: base,
    secretKey,
    webhookSecret,
    env: { STRIPE_SECRET_KEY: secretKey, STRIPE_WEBHOOK_SECRET: webhookSecret, STRIPE_API_BASE: base },
    sessions,
    subscriptions,
    events,
    setWebhookUrl(next) {
      webhookUrl = next;
    },
    act,
    renew,
    change,
    dispute,
    closeDispute,
    sendEvent,
    close: () => closeFakeServer(server),
  };
}
