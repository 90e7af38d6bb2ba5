import { createHash, randomBytes, randomUUID } from 'node:crypto';
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

export interface CryptomusFake {
  /** CRYPTOMUS_API_BASE. */
  url: string;
  merchantId: string;
  apiKey: string;
  env: Record<string, string>;
  invoices: Map<string, Json>;
  /** Every callback sent: the exact body and the status the shop answered. */
  callbacks: Array<{ body: string; status: number }>;
  /** Plays the buyer on the invoice page. */
  act(uuid: string, action: 'pay' | 'wrong_amount' | 'cancel'): Promise<void>;
  /** Sends the callback of an invoice's current status, signed as Cryptomus signs. */
  sendCallback(uuid: string): Promise<number>;
  close(): Promise<void>;
}

/** PHP `json_encode` with default flags: `/` as `\/`, non-ASCII as `\uXXXX`. */
const phpJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/\//g, '\\/')
    .replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const signOf = (json: string, key: string) => md5(Buffer.from(json, 'utf8').toString('base64') + key);

/**
 * A local stand-in for Cryptomus's payment API (https://api.cryptomus.com): every request signed
 * with headers `merchant` and `sign` = md5(base64(body) + API key); `POST /v1/payment` returns the
 * existing invoice for a repeated `order_id`; `/v1/payment/info` and `/v1/payment/refund`; a
 * hosted invoice page; and callbacks to `url_callback` carrying `sign` = md5(base64(JSON of the
 * rest, encoded as PHP encodes it) + API key), first `confirm_check` then the final status.
 */
export async function startCryptomusFake(
  options: {
    host?: string;
    port?: number;
    /** Kept between runs by `npm run fakes`, so the app started with them keeps working. */
    merchantId?: string;
    apiKey?: string;
  } = {},
): Promise<CryptomusFake> {
  const merchantId = options.merchantId ?? randomUUID();
  const apiKey = options.apiKey ?? randomBytes(48).toString('base64url');
  const invoices = new Map<string, Json>();
  const callbacks: CryptomusFake['callbacks'] = [];
  let base = '';

  async function sendCallback(uuid: string): Promise<number> {
    const invoice = invoices.get(uuid);
    if (!invoice?.url_callback) return 0;
    const body: Json = {
      type: 'payment',
      uuid: invoice.uuid,
      order_id: invoice.order_id,
      amount: invoice.amount,
      payment_amount: invoice.payment_amount ?? '0.00000000',
      payment_amount_usd: invoice.amount,
      merchant_amount: invoice.amount,
      commission: '0.00',
      is_final: invoice.is_final,
      status: invoice.payment_status,
      from: invoice.from ?? null,
      wallet_address_uuid: null,
      network: 'tron',
      currency: invoice.currency,
      payer_currency: 'USDT',
      additional_data: invoice.additional_data ?? null,
      convert: null,
      txid: invoice.txid ?? null,
    };
    const json = phpJson({ ...body, sign: signOf(phpJson(body), apiKey) });
    const status = await deliverNotification(String(invoice.url_callback), json, {});
    callbacks.push({ body: json, status });
    return status;
  }

  async function act(uuid: string, action: 'pay' | 'wrong_amount' | 'cancel') {
    const invoice = invoices.get(uuid);
    if (!invoice || invoice.is_final) return;
    if (action === 'cancel') {
      Object.assign(invoice, { payment_status: 'cancel', status: 'cancel', is_final: true });
      await sendCallback(uuid);
      return;
    }
    // A transfer is first seen on the chain, then confirmed.
    Object.assign(invoice, {
      payment_status: 'confirm_check',
      status: 'confirm_check',
      from: `T${randomBytes(16).toString('hex')}`,
      txid: randomBytes(32).toString('hex'),
    });
    await sendCallback(uuid);
    Object.assign(invoice, {
      payment_status: action === 'pay' ? 'paid' : 'wrong_amount',
      status: action === 'pay' ? 'paid' : 'wrong_amount',
      payment_amount: invoice.amount,
      is_final: true,
    });
    await sendCallback(uuid);
  }

  const fail = (status: number, message: string, errors?: Json) => ({
    status,
    body: { state: 1, message, ...(errors ? { errors } : {}) },
  });

  function route(path: string, body: Json): { status: number; body: unknown } {
    if (path === '/v1/payment') {
      const orderId = String(body.order_id ?? '');
      if (!/^[\w-]{1,128}$/.test(orderId)) return fail(422, 'Validation error', { order_id: ['alpha_dash'] });
      if (!/^\d+(\.\d+)?$/.test(String(body.amount ?? '')))
        return fail(422, 'Validation error', { amount: ['numeric'] });
      const existing = [...invoices.values()].find((i) => i.order_id === orderId);
      if (existing) return { status: 200, body: { state: 0, result: publicOf(existing) } };
      const uuid = randomUUID();
      const invoice: Json = {
        uuid,
        order_id: orderId,
        amount: String(body.amount),
        payment_amount: null,
        currency: String(body.currency),
        url: `${base}/pay/${uuid}`,
        status: 'check',
        payment_status: 'check',
        is_final: false,
        expired_at: Math.floor(Date.now() / 1000) + Number(body.lifetime ?? 3600),
        url_callback: body.url_callback ?? null,
        url_return: body.url_return ?? null,
        url_success: body.url_success ?? null,
        additional_data: body.additional_data ?? null,
        created_at: new Date().toISOString(),
      };
      invoices.set(uuid, invoice);
      return { status: 200, body: { state: 0, result: publicOf(invoice) } };
    }
    if (path === '/v1/payment/info') {
      const invoice =
        invoices.get(String(body.uuid ?? '')) ??
        [...invoices.values()].find((i) => body.order_id !== undefined && i.order_id === body.order_id);
      if (!invoice) return fail(404, 'Payment not found');
      return { status: 200, body: { state: 0, result: publicOf(invoice) } };
    }
    if (path === '/v1/payment/refund') {
      const invoice = invoices.get(String(body.uuid ?? ''));
      if (!invoice) return fail(404, 'Payment not found');
      if (!['paid', 'paid_over'].includes(String(invoice.payment_status)))
        return fail(422, 'Payment is not paid');
      if (!body.address) return fail(422, 'Validation error', { address: ['required'] });
      Object.assign(invoice, { payment_status: 'refund_paid', status: 'refund_paid' });
      void sendCallback(String(invoice.uuid));
      return { status: 200, body: { state: 0, result: [] } };
    }
    return fail(404, 'Not found');
  }

  const publicOf = (invoice: Json) =>
    Object.fromEntries(
      Object.entries(invoice).filter(([k]) => !['url_callback', 'additional_data'].includes(k)),
    );

  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://fake');
      const raw = await readBody(request);
      const page = /^\/pay\/([\w-]+)$/.exec(url.pathname);
      if (page) {
        const invoice = invoices.get(page[1]!);
        if (!invoice) return sendJson(response, 404, { state: 1, message: 'Not found' });
        const back = String(invoice.url_return ?? '/');
        if (request.method === 'POST') {
          const action = new URLSearchParams(raw).get('action');
          if (action === 'pay' || action === 'wrong_amount' || action === 'cancel')
            await act(String(invoice.uuid), action);
          return redirect(response, action === 'pay' ? String(invoice.url_success ?? back) : back);
        }
        return sendHtml(
          response,
          renderCheckoutPage({
            provider: 'Cryptomus',
            title: 'Cryptomus invoice',
            amount: `${String(invoice.amount)} ${String(invoice.currency)}`,
            description: 'Pay with cryptocurrency (USDT, TRON network)',
            status: String(invoice.payment_status),
            actions: invoice.is_final
              ? []
              : [
                  { action: 'pay', label: 'Pay' },
                  { action: 'wrong_amount', label: 'Send a wrong amount' },
                  { action: 'cancel', label: 'Cancel' },
                ],
            backUrl: back,
          }),
        );
      }
      if (request.method !== 'POST') return sendJson(response, 404, fail(404, 'Not found').body);
      if (request.headers.merchant !== merchantId || request.headers.sign !== signOf(raw, apiKey)) {
        return sendJson(response, 401, fail(401, 'Unauthorized').body);
      }
      let body: Json;
      try {
        body = raw ? (JSON.parse(raw) as Json) : {};
      } catch {
        return sendJson(response, 422, fail(422, 'Invalid JSON').body);
      }
      const result = route(url.pathname, body);
      return sendJson(response, result.status, result.body);
    })().catch((error: unknown) => sendJson(response, 500, { state: 1, message: String(error) }));
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const { port } = server.address() as AddressInfo;
  base = `http://${options.host ?? '127.0.0.1'}:${port}`;
  return {
    url: base,
    merchantId,
    apiKey,
    env: { CRYPTOMUS_MERCHANT_ID: merchantId, CRYPTOMUS_API_KEY: apiKey, CRYPTOMUS_API_BASE: base },
    invoices,
    callbacks,
    act,
    sendCallback,
    close: () => closeFakeServer(server),
  };
}
