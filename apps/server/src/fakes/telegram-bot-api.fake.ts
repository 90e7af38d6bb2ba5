import { randomBytes, randomInt } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A Telegram user as Bot API updates carry it (`User`). */
export interface FakeTelegramUser {
  id: number;
  is_bot?: false;
  first_name: string;
  last_name?: string;
  username?: string;
  language_code?: string;
  is_premium?: true;
}

export interface FakeChat {
  id: number;
  type: 'private' | 'group' | 'supergroup' | 'channel';
  title?: string;
  first_name?: string;
  last_name?: string;
  username?: string;
}

export interface FakeMessage {
  message_id: number;
  from: FakeTelegramUser | FakeBotUser;
  chat: FakeChat;
  date: number;
  text: string;
  entities?: Array<{ offset: number; length: number; type: string }>;
  reply_markup?: unknown;
}

export interface FakeUpdate {
  update_id: number;
  message?: FakeMessage;
  [kind: string]: unknown;
}

export interface FakeBotUser {
  id: number;
  is_bot: true;
  first_name: string;
  username: string;
}

/** The Bot API envelope: `{ok: true, result}` or `{ok: false, error_code, description, parameters?}`. */
export type BotApiEnvelope =
  | { ok: true; result: unknown; description?: string }
  | { ok: false; error_code: number; description: string; parameters?: { retry_after?: number } };

/** One request our code made to the Bot API, as the fake understood it. */
export interface BotApiCall {
  /** The method as called (Telegram matches method names case-insensitively). */
  method: string;
  /** Parameters from the query string and the body (JSON or form), form values JSON-decoded. */
  params: Record<string, unknown>;
  httpMethod: string;
  contentType: string;
  status: number;
  response: BotApiEnvelope;
}

export interface WebhookDelivery {
  update: FakeUpdate;
  /** The HTTP status the webhook answered with. */
  status: number;
  body: string;
}

export interface FakeWebhook {
  url: string;
  secretToken: string | null;
  allowedUpdates: string[] | null;
  maxConnections: number;
}

export interface TelegramBotApiFake {
  /** Use as TELEGRAM_API_BASE (no trailing slash). */
  url: string;
  /** Use as TELEGRAM_BOT_TOKEN; any other token is answered 401. */
  token: string;
  /** What getMe answers; `bot.username` is TELEGRAM_BOT_USERNAME. */
  bot: FakeBotUser;
  /** TELEGRAM_API_BASE, TELEGRAM_BOT_TOKEN and TELEGRAM_BOT_USERNAME for this fake. */
  env: { TELEGRAM_API_BASE: string; TELEGRAM_BOT_TOKEN: string; TELEGRAM_BOT_USERNAME: string };
  /** Every call so far, oldest first; only those to `method` when given. */
  calls(method?: string): BotApiCall[];
  /** The messages the bot sent successfully (what sendMessage returned), oldest first. */
  sentMessages(chatId?: number): FakeMessage[];
  /** Forgets recorded calls and deliveries (the webhook and blocked chats stay). */
  clearCalls(): void;
  /** The webhook set by setWebhook, or null. */
  webhook(): FakeWebhook | null;
  /** From now on, messages to this chat fail as if the user blocked the bot (403). */
  blockChat(chatId: number): void;
  unblockChat(chatId: number): void;
  /** The next `count` calls, whatever the method, answer 429 with `parameters.retry_after`. */
  rateLimitNext(count: number, retryAfterSeconds: number): void;
  /** A fresh, realistic Telegram user (unique id); fields given override the defaults. */
  newUser(overrides?: Partial<FakeTelegramUser>): FakeTelegramUser;
  /**
   * The Update Telegram sends when `user` presses Start under `t.me/<bot>?start=<payload>`:
   * `/start <payload>` (or plain `/start`) with its bot_command entity, in the user's private chat.
   */
  startUpdate(options?: { payload?: string; user?: Partial<FakeTelegramUser> }): FakeUpdate;
  /**
   * POSTs an update to the webhook URL registered with setWebhook, with the
   * `X-Telegram-Bot-Api-Secret-Token` header, as Telegram does. Throws when no webhook is set.
   */
  deliverUpdate(update: FakeUpdate): Promise<WebhookDelivery>;
  /** `startUpdate` then `deliverUpdate`. */
  pressStart(options?: { payload?: string; user?: Partial<FakeTelegramUser> }): Promise<WebhookDelivery>;
  /** Every delivery so far, oldest first. */
  deliveries(): WebhookDelivery[];
  /** Invoices made by createInvoiceLink, by the slug of their link. */
  invoices(): Map<string, FakeStarsInvoice>;
  /**
   * Plays `user` paying an invoice link in Telegram: a `pre_checkout_query` update, then, if the
   * bot answered ok within 10 seconds, the `successful_payment` message (with
   * `subscription_expiration_date`, `is_recurring`, `is_first_recurring` for subscriptions).
   * Answers what happened.
   */
  payInvoice(
    link: string,
    user: FakeTelegramUser,
    options?: { loseSuccessfulPayment?: boolean },
  ): Promise<{ status: 'paid' | 'failed'; chargeId?: string; error?: string }>;
  /** The bot's Star transactions as `getStarTransactions` lists them (oldest first). */
  starTransactions(): FakeStarTransaction[];
  /** The next period of a Stars subscription: another `successful_payment` (is_recurring, not first). */
  renewStarSubscription(chargeId: string): Promise<WebhookDelivery | null>;
  close(): Promise<void>;
}

/**
 * A Star transaction as the Bot API's `StarTransaction` shows it: an incoming payment has the
 * payer as `source` (`TransactionPartnerUser`, `transaction_type` `invoice_payment`, with the
 * invoice's payload and, for a subscription, its period); a refund goes out to the payer as
 * `receiver` under the id of the payment it returns.
 */
export interface FakeStarTransaction {
  id: string;
  amount: number;
  date: number;
  source?: Record<string, unknown>;
  receiver?: Record<string, unknown>;
}

/** An invoice created with createInvoiceLink, and what became of it. */
export interface FakeStarsInvoice {
  slug: string;
  title: string;
  description: string;
  payload: string;
  currency: string;
  amount: number;
  subscriptionPeriod: number | null;
  /** Charges paid on it (the first, then renewals), with the payer. */
  charges: Array<{ chargeId: string; userId: number; refunded: boolean; canceled: boolean }>;
}

export interface TelegramBotApiFakeOptions {
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  token?: string;
  botUsername?: string;
  botFirstName?: string;
  /** Like the real API, refuse webhook URLs that are not https (off by default: tests use http). */
  requireHttpsWebhook?: boolean;
  /** A webhook already set at start, as if setWebhook had been called. */
  webhook?: { url: string; secretToken?: string };
  /** Called after every Bot API call (the CLI prints them). */
  onCall?: (call: BotApiCall) => void;
}

const MAX_TEXT_LENGTH = 4096;
const SECRET_TOKEN = /^[A-Za-z0-9_-]+$/;

/** A Bot API error, answered with the same HTTP status as its error_code (as Telegram does). */
class BotApiError extends Error {
  constructor(
    readonly errorCode: number,
    readonly description: string,
    readonly retryAfter?: number,
  ) {
    super(description);
  }
}
const badRequest = (what: string) => new BotApiError(400, `Bad Request: ${what}`);

/**
 * A local stand-in for https://api.telegram.org: a real HTTP server on 127.0.0.1 answering
 * `/bot<token>/<method>` (GET or POST; query string, JSON or form-urlencoded parameters) with the
 * Bot API envelope, for getMe, sendMessage, setWebhook, deleteWebhook and getWebhookInfo, and the
 * Stars payment methods (createInvoiceLink, answerPreCheckoutQuery, refundStarPayment,
 * editUserStarSubscription, getStarTransactions with offset/limit, oldest first). It checks
 * what Telegram checks for these, records every call, and plays the Telegram side of a webhook:
 * `deliverUpdate` POSTs updates to the registered URL with the secret-token header.
 *
 * Test controls: `blockChat` (403 "bot was blocked by the user"), `rateLimitNext` (429 with
 * retry_after). Over HTTP, for browser tests and a developer running `scripts/fake-telegram.ts`:
 * `POST /__fake__/press-start {payload, user}`, `GET /__fake__/calls?method=`, `POST /__fake__/reset`.
 */
export async function startTelegramBotApiFake(
  options: TelegramBotApiFakeOptions = {},
): Promise<TelegramBotApiFake> {
  // Real tokens are `<bot id>:<35 characters>`, and the bot id is the `id` getMe answers.
  const botId = Number(options.token?.split(':')[0]) || 7_000_000_000 + randomInt(999_999_999);
  const token = options.token ?? `${botId}:AA${randomBytes(27).toString('base64url').slice(0, 33)}`;
  const bot: FakeBotUser = {
    id: botId,
    is_bot: true,
    first_name: options.botFirstName ?? 'Mirra (test)',
    username: (options.botUsername ?? 'mirra_test_bot').replace(/^@/, ''),
  };
  const calls: BotApiCall[] = [];
  const deliveries: WebhookDelivery[] = [];
  const blocked = new Set<number>();
  const knownUsers = new Map<number, FakeTelegramUser>();
  const messageCounters = new Map<number, number>();
  let rateLimited = { count: 0, retryAfter: 0 };
  let webhook: FakeWebhook | null = options.webhook
    ? {
        url: options.webhook.url,
        secretToken: options.webhook.secretToken ?? null,
        allowedUpdates: null,
        maxConnections: 40,
      }
    : null;
  let lastWebhookError: { date: number; message: string } | null = null;
  let nextUpdateId = 100_000_000 + randomInt(800_000_000);
  const invoices = new Map<string, FakeStarsInvoice>();
  const starTransactions: FakeStarTransaction[] = [];
  const partnerOf = (invoice: FakeStarsInvoice, user: FakeTelegramUser) => ({
    type: 'user',
    transaction_type: 'invoice_payment',
    user,
    invoice_payload: invoice.payload,
    ...(invoice.subscriptionPeriod ? { subscription_period: invoice.subscriptionPeriod } : {}),
  });
  const preCheckoutAnswers = new Map<string, { ok: boolean; error_message?: string }>();
  const chargeOf = (userId: number, chargeId: string) => {
    for (const invoice of invoices.values()) {
      const charge = invoice.charges.find((c) => c.chargeId === chargeId && c.userId === userId);
      if (charge) return { invoice, charge };
    }
    return null;
  };

  const nowSeconds = () => Math.floor(Date.now() / 1000);
  // In a private chat both sides' messages share one sequence of ids.
  const nextMessageId = (chatId: number) => {
    const id = (messageCounters.get(chatId) ?? 0) + 1;
    messageCounters.set(chatId, id);
    return id;
  };
  const chatOf = (chatId: number): FakeChat => {
    const user = knownUsers.get(chatId);
    return {
      id: chatId,
      type: 'private',
      ...(user ? { first_name: user.first_name } : {}),
      ...(user?.last_name ? { last_name: user.last_name } : {}),
      ...(user?.username ? { username: user.username } : {}),
    };
  };

  const methods: Record<
    string,
    (params: Record<string, unknown>) => { result: unknown; description?: string }
  > = {
    getme: () => ({
      result: {
        ...bot,
        can_join_groups: true,
        can_read_all_group_messages: false,
        supports_inline_queries: false,
        can_connect_to_business: false,
        has_main_web_app: true,
      },
    }),

    sendmessage: (params) => {
      const chatId = readChatId(params.chat_id);
      const text =
        typeof params.text === 'string' ? params.text : params.text == null ? '' : String(params.text);
      if (!text.trim()) throw badRequest('message text is empty');
      // Telegram counts UTF-16 code units, as JavaScript's length does.
      if (text.length > MAX_TEXT_LENGTH) throw badRequest('message is too long');
      if (
        params.parse_mode !== undefined &&
        !/^(html|markdown|markdownv2)$/i.test(String(params.parse_mode))
      ) {
        throw badRequest(`unsupported parse_mode`);
      }
      const replyMarkup =
        params.reply_markup === undefined ? undefined : readReplyMarkup(params.reply_markup);
      if (blocked.has(chatId)) throw new BotApiError(403, 'Forbidden: bot was blocked by the user');
      const message: FakeMessage = {
        message_id: nextMessageId(chatId),
        from: bot,
        chat: chatOf(chatId),
        date: nowSeconds(),
        text,
        ...(replyMarkup ? { reply_markup: replyMarkup } : {}),
      };
      return { result: message };
    },

    setwebhook: (params) => {
      const url = params.url === undefined || params.url === null ? '' : String(params.url);
      if (!url) {
        const had = webhook !== null;
        webhook = null;
        return { result: true, description: had ? 'Webhook was deleted' : 'Webhook is already deleted' };
      }
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        throw badRequest('bad webhook: Failed to resolve host: Name or service not known');
      }
      if (parsed.protocol !== 'https:' && (options.requireHttpsWebhook || parsed.protocol !== 'http:')) {
        throw badRequest('bad webhook: An HTTPS URL must be provided for webhook');
      }
      let secretToken: string | null = null;
      if (params.secret_token !== undefined && params.secret_token !== '') {
        secretToken = String(params.secret_token);
        if (!SECRET_TOKEN.test(secretToken)) throw badRequest('secret token contains unallowed characters');
        if (secretToken.length > 256) throw badRequest('secret token is too long');
      }
      const allowedUpdates =
        params.allowed_updates === undefined ? null : readStringList(params.allowed_updates);
      const maxConnections = params.max_connections === undefined ? 40 : Number(params.max_connections);
      if (!Number.isInteger(maxConnections) || maxConnections < 1 || maxConnections > 100) {
        throw badRequest('bad webhook: max_connections must be between 1 and 100');
      }
      const same =
        webhook?.url === url &&
        webhook.secretToken === secretToken &&
        JSON.stringify(webhook.allowedUpdates) === JSON.stringify(allowedUpdates);
      webhook = { url, secretToken, allowedUpdates, maxConnections };
      lastWebhookError = null;
      return { result: true, description: same ? 'Webhook is already set' : 'Webhook was set' };
    },

    createinvoicelink: (params) => {
      const title = String(params.title ?? '');
      const description = String(params.description ?? '');
      const payload = String(params.payload ?? '');
      if (title.length < 1 || title.length > 32) throw badRequest('invoice title length must be 1-32');
      if (description.length < 1 || description.length > 255)
        throw badRequest('invoice description length must be 1-255');
      if (Buffer.byteLength(payload) < 1 || Buffer.byteLength(payload) > 128)
        throw badRequest('invoice payload length must be 1-128 bytes');
      const currency = String(params.currency ?? '');
      const prices = Array.isArray(params.prices)
        ? (params.prices as Array<{ label?: unknown; amount?: unknown }>)
        : [];
      if (currency === 'XTR') {
        if (params.provider_token !== undefined && params.provider_token !== '')
          throw badRequest('provider_token must be empty for payments in Telegram Stars');
        if (prices.length !== 1)
          throw badRequest('prices must contain exactly one item for payments in Telegram Stars');
      }
      const amount = Number(prices[0]?.amount);
      if (!Number.isInteger(amount) || amount < 1) throw badRequest('invalid price amount');
      let subscriptionPeriod: number | null = null;
      if (params.subscription_period !== undefined) {
        subscriptionPeriod = Number(params.subscription_period);
        if (currency !== 'XTR') throw badRequest('subscriptions are supported only in Telegram Stars');
        if (subscriptionPeriod !== 2_592_000) throw badRequest('subscription_period must be 2592000');
        if (amount > 10_000) throw badRequest('subscription price must not exceed 10000 Telegram Stars');
      }
      const slug = randomBytes(12).toString('base64url');
      invoices.set(slug, {
        slug,
        title,
        description,
        payload,
        currency,
        amount,
        subscriptionPeriod,
        charges: [],
      });
      return { result: `https://t.me/$${slug}` };
    },

    answerprecheckoutquery: (params) => {
      const id = String(params.pre_checkout_query_id ?? '');
      if (!id) throw badRequest('pre_checkout_query_id is empty');
      const ok = params.ok === true || params.ok === 'true';
      if (!ok && !params.error_message) throw badRequest('error_message is required when ok is false');
      if (!preCheckoutAnswers.has(id))
        throw badRequest('query is too old and response timeout expired or query ID is invalid');
      preCheckoutAnswers.set(id, {
        ok,
        ...(params.error_message ? { error_message: String(params.error_message) } : {}),
      });
      return { result: true };
    },

    refundstarpayment: (params) => {
      const found = chargeOf(Number(params.user_id), String(params.telegram_payment_charge_id ?? ''));
      if (!found) throw badRequest('CHARGE_NOT_FOUND');
      if (found.charge.refunded) throw badRequest('CHARGE_ALREADY_REFUNDED');
      found.charge.refunded = true;
      const { invoice, charge } = found;
      const user = knownUsers.get(charge.userId);
      starTransactions.push({
        id: charge.chargeId,
        amount: invoice.amount,
        date: nowSeconds(),
        receiver: partnerOf(invoice, user ?? newUser({ id: charge.userId })),
      });
      void deliverUpdate({
        update_id: nextUpdateId++,
        message: {
          message_id: nextMessageId(charge.userId),
          from: user ?? newUser({ id: charge.userId }),
          chat: chatOf(charge.userId),
          date: nowSeconds(),
          refunded_payment: {
            currency: invoice.currency,
            total_amount: invoice.amount,
            invoice_payload: invoice.payload,
            telegram_payment_charge_id: charge.chargeId,
          },
        } as unknown as FakeMessage,
      }).catch(() => undefined);
      return { result: true };
    },

    getstartransactions: (params) => {
      const offset = params.offset === undefined ? 0 : Number(params.offset);
      const limit = params.limit === undefined ? 100 : Number(params.limit);
      if (!Number.isInteger(offset) || offset < 0) throw badRequest('offset is invalid');
      if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw badRequest('limit is invalid');
      return { result: { transactions: starTransactions.slice(offset, offset + limit) } };
    },

    edituserstarsubscription: (params) => {
      const found = chargeOf(Number(params.user_id), String(params.telegram_payment_charge_id ?? ''));
      if (!found || !found.invoice.subscriptionPeriod) throw badRequest('SUBSCRIPTION_NOT_FOUND');
      found.charge.canceled = params.is_canceled === true || params.is_canceled === 'true';
      return { result: true };
    },

    deletewebhook: () => {
      const had = webhook !== null;
      webhook = null;
      return { result: true, description: had ? 'Webhook was deleted' : 'Webhook is already deleted' };
    },

    getwebhookinfo: () => ({
      result: {
        url: webhook?.url ?? '',
        has_custom_certificate: false,
        pending_update_count: 0,
        ...(webhook ? { max_connections: webhook.maxConnections, ip_address: '127.0.0.1' } : {}),
        ...(webhook?.allowedUpdates ? { allowed_updates: webhook.allowedUpdates } : {}),
        ...(lastWebhookError
          ? { last_error_date: lastWebhookError.date, last_error_message: lastWebhookError.message }
          : {}),
      },
    }),
  };

  function answerBotApi(
    method: string,
    params: Record<string, unknown>,
  ): { status: number; envelope: BotApiEnvelope } {
    try {
      const handler = methods[method.toLowerCase()];
      if (!handler) throw new BotApiError(404, 'Not Found');
      if (rateLimited.count > 0) {
        rateLimited = { ...rateLimited, count: rateLimited.count - 1 };
        const seconds = rateLimited.retryAfter;
        throw new BotApiError(429, `Too Many Requests: retry after ${seconds}`, seconds);
      }
      const { result, description } = handler(params);
      return { status: 200, envelope: { ok: true, result, ...(description ? { description } : {}) } };
    } catch (error) {
      if (!(error instanceof BotApiError)) throw error;
      return {
        status: error.errorCode,
        envelope: {
          ok: false,
          error_code: error.errorCode,
          description: error.description,
          ...(error.retryAfter !== undefined ? { parameters: { retry_after: error.retryAfter } } : {}),
        },
      };
    }
  }

  function newUser(overrides: Partial<FakeTelegramUser> = {}): FakeTelegramUser {
    const id = overrides.id ?? 100_000_000 + randomInt(2_000_000_000);
    return { id, is_bot: false, first_name: 'Ada', username: `ada_${id}`, language_code: 'en', ...overrides };
  }

  function startUpdate(
    startOptions: { payload?: string; user?: Partial<FakeTelegramUser> } = {},
  ): FakeUpdate {
    const from = newUser(startOptions.user);
    knownUsers.set(from.id, from);
    const text = startOptions.payload ? `/start ${startOptions.payload}` : '/start';
    return {
      update_id: nextUpdateId++,
      message: {
        message_id: nextMessageId(from.id),
        from,
        chat: chatOf(from.id),
        date: nowSeconds(),
        text,
        entities: [{ offset: 0, length: '/start'.length, type: 'bot_command' }],
      },
    };
  }

  async function deliverUpdate(update: FakeUpdate): Promise<WebhookDelivery> {
    if (!webhook) throw new Error('No webhook is set: call setWebhook (npm run telegram:setup) first.');
    const from = update.message?.from;
    if (from && from.is_bot !== true) knownUsers.set(from.id, from);
    let response: Response;
    try {
      response = await fetch(webhook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(webhook.secretToken ? { 'x-telegram-bot-api-secret-token': webhook.secretToken } : {}),
        },
        body: JSON.stringify(update),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      // What getWebhookInfo then reports, as Telegram does when the server is down.
      lastWebhookError = { date: nowSeconds(), message: 'Connection refused' };
      throw new Error(`The webhook ${webhook.url} is unreachable.`, { cause: error });
    }
    const delivery = { update, status: response.status, body: await response.text() };
    deliveries.push(delivery);
    lastWebhookError = response.ok
      ? null
      : {
          date: nowSeconds(),
          message: `Wrong response from the webhook: ${response.status} ${response.statusText}`,
        };
    return delivery;
  }

  async function payInvoice(
    link: string,
    user: FakeTelegramUser,
    options: { loseSuccessfulPayment?: boolean } = {},
  ): Promise<{ status: 'paid' | 'failed'; chargeId?: string; error?: string }> {
    const invoice = invoices.get(link.replace(/^https:\/\/t\.me\/\$/, ''));
    if (!invoice) return { status: 'failed', error: 'INVOICE_NOT_FOUND' };
    knownUsers.set(user.id, user);
    const queryId = String(randomInt(1_000_000_000_000));
    preCheckoutAnswers.set(queryId, { ok: false });
    const answered = () =>
      calls.some(
        (c) =>
          c.method.toLowerCase() === 'answerprecheckoutquery' &&
          c.params.pre_checkout_query_id === queryId &&
          c.response.ok,
      );
    await deliverUpdate({
      update_id: nextUpdateId++,
      pre_checkout_query: {
        id: queryId,
        from: user,
        currency: invoice.currency,
        total_amount: invoice.amount,
        invoice_payload: invoice.payload,
      },
    });
    // The bot has 10 seconds to answer.
    const deadline = Date.now() + 10_000;
    while (!answered() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    const answer = preCheckoutAnswers.get(queryId)!;
    preCheckoutAnswers.delete(queryId);
    if (!answered())
      return { status: 'failed', error: 'the bot did not answer the pre-checkout query in time' };
    if (!answer.ok) return { status: 'failed', error: answer.error_message ?? 'declined' };
    const chargeId = `stxt${randomBytes(20).toString('hex')}`;
    invoice.charges.push({ chargeId, userId: user.id, refunded: false, canceled: false });
    starTransactions.push({
      id: chargeId,
      amount: invoice.amount,
      date: nowSeconds(),
      source: partnerOf(invoice, user),
    });
    // The Stars are paid either way; a lost message (the bot was down) leaves only the transaction.
    if (!options.loseSuccessfulPayment) {
      await deliverSuccessfulPayment(invoice, user, chargeId, invoice.charges.length === 1);
    }
    return { status: 'paid', chargeId };
  }

  function deliverSuccessfulPayment(
    invoice: FakeStarsInvoice,
    user: FakeTelegramUser,
    chargeId: string,
    first: boolean,
  ) {
    const recurring = invoice.subscriptionPeriod !== null;
    return deliverUpdate({
      update_id: nextUpdateId++,
      message: {
        message_id: nextMessageId(user.id),
        from: user,
        chat: chatOf(user.id),
        date: nowSeconds(),
        successful_payment: {
          currency: invoice.currency,
          total_amount: invoice.amount,
          invoice_payload: invoice.payload,
          ...(recurring
            ? {
                subscription_expiration_date:
                  nowSeconds() + invoice.subscriptionPeriod! * invoice.charges.length,
                is_recurring: true,
                ...(first ? { is_first_recurring: true } : {}),
              }
            : {}),
          telegram_payment_charge_id: chargeId,
          provider_payment_charge_id: `${user.id}_${invoice.charges.length}`,
        },
      } as unknown as FakeMessage,
    });
  }

  async function renewStarSubscription(chargeId: string): Promise<WebhookDelivery | null> {
    for (const invoice of invoices.values()) {
      const first = invoice.charges[0];
      if (first?.chargeId !== chargeId || !invoice.subscriptionPeriod || first.canceled) continue;
      const user = knownUsers.get(first.userId) ?? newUser({ id: first.userId });
      const next = `stxt${randomBytes(20).toString('hex')}`;
      invoice.charges.push({ chargeId: next, userId: first.userId, refunded: false, canceled: false });
      starTransactions.push({
        id: next,
        amount: invoice.amount,
        date: nowSeconds(),
        source: partnerOf(invoice, user),
      });
      return deliverSuccessfulPayment(invoice, user, next, false);
    }
    return null;
  }

  async function handleFakeControl(
    request: IncomingMessage,
    url: URL,
    response: ServerResponse,
  ): Promise<void> {
    if (request.method === 'POST' && url.pathname === '/__fake__/press-start') {
      const body = (await readParams(request, url)) as { payload?: unknown; user?: unknown };
      const payload = typeof body.payload === 'string' && body.payload ? body.payload : undefined;
      const user = body.user && typeof body.user === 'object' ? (body.user as Partial<FakeTelegramUser>) : {};
      if (!webhook) {
        sendJson(response, 409, {
          ok: false,
          description: 'No webhook is set: run `npm run telegram:setup` against this fake.',
        });
        return;
      }
      let delivery: WebhookDelivery;
      try {
        delivery = await deliverUpdate(startUpdate({ payload, user }));
      } catch (error) {
        sendJson(response, 502, { ok: false, description: (error as Error).message });
        return;
      }
      sendJson(response, 200, {
        ok: true,
        update: delivery.update,
        delivery: { status: delivery.status, body: delivery.body },
      });
      return;
    }
    if (request.method === 'POST' && url.pathname === '/__fake__/pay-invoice') {
      const body = (await readParams(request, url)) as { link?: unknown; user?: unknown };
      const user = newUser(
        body.user && typeof body.user === 'object' ? (body.user as Partial<FakeTelegramUser>) : {},
      );
      const result = await payInvoice(String(body.link ?? ''), user).catch((error: unknown) => ({
        status: 'failed' as const,
        error: (error as Error).message,
      }));
      sendJson(response, 200, { ok: true, ...result });
      return;
    }
    if (request.method === 'GET' && url.pathname === '/__fake__/calls') {
      const method = url.searchParams.get('method');
      sendJson(response, 200, { ok: true, calls: method ? filterCalls(method) : calls });
      return;
    }
    if (request.method === 'POST' && url.pathname === '/__fake__/reset') {
      calls.length = 0;
      deliveries.length = 0;
      blocked.clear();
      rateLimited = { count: 0, retryAfter: 0 };
      sendJson(response, 200, { ok: true });
      return;
    }
    sendJson(response, 404, { ok: false, error_code: 404, description: 'Not Found' });
  }

  const filterCalls = (method: string) =>
    calls.filter((c) => c.method.toLowerCase() === method.toLowerCase());

  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://fake.local');
      if (url.pathname.startsWith('/__fake__/')) {
        await handleFakeControl(request, url, response);
        return;
      }
      const match = /^\/bot([^/]*)\/([^/]*)$/.exec(url.pathname);
      if (!match) {
        sendJson(response, 404, { ok: false, error_code: 404, description: 'Not Found' });
        return;
      }
      const [, givenToken, method = ''] = match;
      let params: Record<string, unknown>;
      try {
        params = await readParams(request, url);
      } catch {
        sendJson(response, 400, {
          ok: false,
          error_code: 400,
          description: "Bad Request: can't parse JSON object",
        });
        return;
      }
      const { status, envelope } =
        safeDecode(givenToken ?? '') === token
          ? answerBotApi(method, params)
          : { status: 401, envelope: { ok: false as const, error_code: 401, description: 'Unauthorized' } };
      const call: BotApiCall = {
        method,
        params,
        httpMethod: request.method ?? 'GET',
        contentType: request.headers['content-type'] ?? '',
        status,
        response: envelope,
      };
      calls.push(call);
      options.onCall?.(call);
      sendJson(response, status, envelope);
    })().catch((error: unknown) => {
      if (!response.headersSent) {
        sendJson(response, 500, {
          ok: false,
          error_code: 500,
          description: `Internal Server Error: ${String(error)}`,
        });
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;

  return {
    url,
    token,
    bot,
    env: { TELEGRAM_API_BASE: url, TELEGRAM_BOT_TOKEN: token, TELEGRAM_BOT_USERNAME: bot.username },
    calls: (method) => (method ? filterCalls(method) : [...calls]),
    sentMessages: (chatId) =>
      filterCalls('sendMessage')
        .filter((c) => c.response.ok)
        .map((c) => (c.response as { result: FakeMessage }).result)
        .filter((m) => chatId === undefined || m.chat.id === chatId),
    clearCalls() {
      calls.length = 0;
      deliveries.length = 0;
    },
    webhook: () => (webhook ? { ...webhook } : null),
    blockChat: (chatId) => void blocked.add(chatId),
    unblockChat: (chatId) => void blocked.delete(chatId),
    rateLimitNext(count, retryAfterSeconds) {
      rateLimited = { count, retryAfter: retryAfterSeconds };
    },
    newUser,
    startUpdate,
    deliverUpdate,
    pressStart: (startOptions) => deliverUpdate(startUpdate(startOptions)),
    deliveries: () => [...deliveries],
    invoices: () => invoices,
    starTransactions: () => starTransactions,
    payInvoice,
    renewStarSubscription,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/**
 * Parameters as the Bot API reads them: the query string, then a JSON or form-urlencoded body.
 * Form and query values are strings, so those holding JSON (reply_markup, allowed_updates) are
 * decoded where they parse.
 */
async function readParams(request: IncomingMessage, url: URL): Promise<Record<string, unknown>> {
  const params: Record<string, unknown> = {};
  for (const [key, value] of url.searchParams) params[key] = decodeFormValue(value);
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  if (!raw) return params;
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json') {
    const body: unknown = JSON.parse(raw);
    if (body && typeof body === 'object' && !Array.isArray(body)) Object.assign(params, body);
  } else if (type === 'application/x-www-form-urlencoded') {
    for (const [key, value] of new URLSearchParams(raw)) params[key] = decodeFormValue(value);
  }
  return params;
}

function decodeFormValue(value: string): unknown {
  if (/^\s*[[{]/.test(value)) {
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }
  return value;
}

function readChatId(value: unknown): number {
  if (value === undefined || value === null || value === '') throw badRequest('chat_id is empty');
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^-?\d{1,20}$/.test(value.trim())) return Number(value.trim());
  // `@channelusername` or garbage: this fake knows no public chats.
  throw badRequest('chat not found');
}

function readStringList(value: unknown): string[] {
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value;
  throw badRequest("can't parse allowed updates JSON object");
}

function readReplyMarkup(value: unknown): unknown {
  const markup = typeof value === 'string' ? tryJson(value) : value;
  if (!markup || typeof markup !== 'object')
    throw badRequest("can't parse reply keyboard markup JSON object");
  const keyboard = (markup as { inline_keyboard?: unknown }).inline_keyboard;
  if (keyboard === undefined) return markup;
  if (!Array.isArray(keyboard) || !keyboard.every(Array.isArray)) {
    throw badRequest(
      'can\'t parse inline keyboard button: field "inline_keyboard" must be an Array of Arrays',
    );
  }
  for (const button of keyboard.flat() as Array<Record<string, unknown>>) {
    if (typeof button?.text !== 'string' || !button.text)
      throw badRequest('text buttons are unallowed in the inline keyboard');
    const webApp = button.web_app as { url?: unknown } | undefined;
    if (webApp !== undefined) {
      const target = String(webApp?.url ?? '');
      if (!target.startsWith('https://')) {
        throw badRequest(
          `inline keyboard button Web App URL '${target}' is invalid: Only HTTPS links are allowed`,
        );
      }
    } else if (button.url !== undefined) {
      if (!isLinkAllowed(String(button.url))) {
        throw badRequest(`inline keyboard button URL '${String(button.url)}' is invalid: Wrong HTTP URL`);
      }
    } else if (button.callback_data === undefined) {
      throw badRequest('text buttons are unallowed in the inline keyboard');
    }
  }
  return markup;
}

/** Telegram takes http(s) links to public hosts and tg:// links; localhost and bare names are refused. */
function isLinkAllowed(link: string): boolean {
  try {
    const parsed = new URL(link);
    if (parsed.protocol === 'tg:') return true;
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
    return parsed.hostname.includes('.') && !/^(localhost|127\.|\[)/.test(parsed.hostname);
  } catch {
    return false;
  }
}

function safeDecode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response
    .writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
    .end(text);
}
