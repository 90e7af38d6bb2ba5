import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTelegramBotApiFake, type TelegramBotApiFake } from '../../fakes/telegram-bot-api.fake.js';
import { createTelegramBotApi, TelegramApiError, type TelegramBotApi } from './bot-api.client.js';

let fake: TelegramBotApiFake;
let bot: TelegramBotApi;
beforeAll(async () => {
  fake = await startTelegramBotApiFake({ botUsername: 'mirra_client_bot' });
  bot = createTelegramBotApi({ apiBase: fake.url, botToken: fake.token });
});
afterAll(() => fake.close());
afterEach(() => fake.clearCalls());

/** What our client threw, for asserting on its fields. */
async function failure(promise: Promise<unknown>): Promise<TelegramApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TelegramApiError);
  return error as TelegramApiError;
}

describe('the Bot API client against the fake', () => {
  it('getMe answers the bot behind the token', async () => {
    expect(await bot.getMe()).toMatchObject({ id: fake.bot.id, is_bot: true, username: 'mirra_client_bot' });
    const [call] = fake.calls('getMe');
    expect(call).toMatchObject({ httpMethod: 'POST', contentType: 'application/json', status: 200 });
  });

  it('sendMessage returns the Message Telegram made', async () => {
    const keyboard = { inline_keyboard: [[{ text: 'Open', web_app: { url: 'https://mirra.app/' } }]] };
    const message = await bot.sendMessage({ chat_id: 4242, text: 'Привет', reply_markup: keyboard });
    expect(message).toMatchObject({
      message_id: expect.any(Number),
      date: expect.any(Number),
      chat: { id: 4242, type: 'private' },
      text: 'Привет',
      reply_markup: keyboard,
    });
    expect(fake.sentMessages(4242)).toEqual([message]);
    expect(fake.calls('sendMessage')[0]!.params).toEqual({
      chat_id: 4242,
      text: 'Привет',
      reply_markup: keyboard,
    });
  });

  it('turns the error envelope into a TelegramApiError with code, description and retry_after', async () => {
    const empty = await failure(bot.sendMessage({ chat_id: 1, text: '' }));
    expect(empty).toMatchObject({
      method: 'sendMessage',
      errorCode: 400,
      description: 'Bad Request: message text is empty',
      retryAfter: undefined,
      isForbidden: false,
    });
    expect(empty.message).toBe('Telegram sendMessage failed: 400 Bad Request: message text is empty');

    fake.blockChat(77);
    const blocked = await failure(bot.sendMessage({ chat_id: 77, text: 'hi' }));
    expect(blocked).toMatchObject({ errorCode: 403, description: 'Forbidden: bot was blocked by the user' });
    expect(blocked.isForbidden).toBe(true);
    fake.unblockChat(77);
    await expect(bot.sendMessage({ chat_id: 77, text: 'hi' })).resolves.toMatchObject({ text: 'hi' });

    fake.rateLimitNext(2, 7);
    for (let i = 0; i < 2; i++) {
      const limited = await failure(bot.getMe());
      expect(limited).toMatchObject({
        errorCode: 429,
        description: 'Too Many Requests: retry after 7',
        retryAfter: 7,
      });
    }
    await expect(bot.getMe()).resolves.toMatchObject({ is_bot: true });

    const unknown = await failure(bot.call('sendTelepathy'));
    expect(unknown).toMatchObject({ errorCode: 404, description: 'Not Found' });
  });

  it('reports a wrong token as 401 Unauthorized', async () => {
    const stranger = createTelegramBotApi({ apiBase: fake.url, botToken: `${fake.bot.id}:wrong` });
    expect(await failure(stranger.getMe())).toMatchObject({ errorCode: 401, description: 'Unauthorized' });
  });

  it('reports a response that is not the envelope (a proxy error page) by its HTTP status', async () => {
    const proxy = createServer((_request, response) => {
      response.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad Gateway</h1>');
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = proxy.address() as AddressInfo;
      const client = createTelegramBotApi({ apiBase: `http://127.0.0.1:${port}`, botToken: fake.token });
      expect(await failure(client.getMe())).toMatchObject({
        errorCode: 502,
        description: 'unreadable response (HTTP 502)',
      });
    } finally {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  it('sets, reads and deletes the webhook', async () => {
    await expect(
      bot.setWebhook({
        url: 'https://mirra.example/api/tg/webhook/',
        secret_token: 'Abc_123-xyz',
        allowed_updates: ['message'],
      }),
    ).resolves.toBe(true);
    expect(fake.webhook()).toEqual({
      url: 'https://mirra.example/api/tg/webhook/',
      secretToken: 'Abc_123-xyz',
      allowedUpdates: ['message'],
      maxConnections: 40,
    });
    expect(await bot.getWebhookInfo()).toMatchObject({
      url: 'https://mirra.example/api/tg/webhook/',
      pending_update_count: 0,
      allowed_updates: ['message'],
    });
    const badSecret = await failure(bot.setWebhook({ url: 'https://mirra.example/', secret_token: 'a:b' }));
    expect(badSecret.description).toBe('Bad Request: secret token contains unallowed characters');
    await expect(bot.deleteWebhook()).resolves.toBe(true);
    expect(fake.webhook()).toBeNull();
    expect((await bot.getWebhookInfo()).url).toBe('');
  });
});

describe('the fake speaks the Bot API wire format', () => {
  const endpoint = (method: string, token = fake.token) => `${fake.url}/bot${token}/${method}`;

  it('takes GET query parameters and form bodies as well as JSON, and method names in any case', async () => {
    const viaQuery = await fetch(
      `${endpoint('sendmessage')}?chat_id=5&text=${encodeURIComponent('hi there')}`,
    );
    expect(viaQuery.status).toBe(200);
    expect(await viaQuery.json()).toMatchObject({ ok: true, result: { chat: { id: 5 }, text: 'hi there' } });

    const markup = JSON.stringify({ inline_keyboard: [[{ text: 'Site', url: 'https://mirra.app/' }]] });
    const viaForm = await fetch(endpoint('sendMessage'), {
      method: 'POST',
      body: new URLSearchParams({ chat_id: '-100', text: 'form', reply_markup: markup }),
    });
    expect(await viaForm.json()).toMatchObject({
      ok: true,
      result: { chat: { id: -100 }, text: 'form', reply_markup: JSON.parse(markup) },
    });
    expect(fake.calls('sendMessage').map((c) => c.httpMethod)).toEqual(['GET', 'POST']);
  });

  it('answers each sendMessage mistake as Telegram does', async () => {
    const send = async (params: Record<string, unknown>) => {
      const response = await fetch(endpoint('sendMessage'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(params),
      });
      const body = (await response.json()) as { ok: boolean; error_code?: number; description?: string };
      expect(response.status).toBe(body.ok ? 200 : body.error_code);
      return body;
    };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ text: 'hi' }, 'Bad Request: chat_id is empty'],
      [{ chat_id: '@nobody', text: 'hi' }, 'Bad Request: chat not found'],
      [{ chat_id: 1 }, 'Bad Request: message text is empty'],
      [{ chat_id: 1, text: '   ' }, 'Bad Request: message text is empty'],
      [{ chat_id: 1, text: 'x'.repeat(4097) }, 'Bad Request: message is too long'],
      [{ chat_id: 1, text: 'hi', parse_mode: 'BBCode' }, 'Bad Request: unsupported parse_mode'],
      [
        {
          chat_id: 1,
          text: 'hi',
          reply_markup: { inline_keyboard: [[{ text: 'Go', web_app: { url: 'http://x.y/' } }]] },
        },
        "Bad Request: inline keyboard button Web App URL 'http://x.y/' is invalid: Only HTTPS links are allowed",
      ],
      [
        {
          chat_id: 1,
          text: 'hi',
          reply_markup: { inline_keyboard: [[{ text: 'Go', url: 'http://localhost:3000/' }]] },
        },
        "Bad Request: inline keyboard button URL 'http://localhost:3000/' is invalid: Wrong HTTP URL",
      ],
    ];
    for (const [params, description] of cases) {
      expect(await send(params), JSON.stringify(params).slice(0, 80)).toEqual({
        ok: false,
        error_code: 400,
        description,
      });
    }
    expect(await send({ chat_id: 1, text: 'x'.repeat(4096) })).toMatchObject({ ok: true });
  });

  it('answers unknown paths and tokens with the envelope, and unparseable JSON with 400', async () => {
    const notFound = await fetch(`${fake.url}/nothing-here`);
    expect(notFound.status).toBe(404);
    expect(await notFound.json()).toEqual({ ok: false, error_code: 404, description: 'Not Found' });
    const unauthorized = await fetch(endpoint('getMe', '123:nope'));
    expect(unauthorized.status).toBe(401);
    expect(await unauthorized.json()).toEqual({ ok: false, error_code: 401, description: 'Unauthorized' });
    const broken = await fetch(endpoint('getMe'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{oops',
    });
    expect(broken.status).toBe(400);
  });

  it('validates the webhook secret token: 1-256 of A-Z a-z 0-9 _ -', async () => {
    await expect(bot.setWebhook({ url: 'https://a.example/', secret_token: 'x'.repeat(256) })).resolves.toBe(
      true,
    );
    const tooLong = await failure(
      bot.setWebhook({ url: 'https://a.example/', secret_token: 'x'.repeat(257) }),
    );
    expect(tooLong.errorCode).toBe(400);
    const spaced = await failure(bot.setWebhook({ url: 'https://a.example/', secret_token: 'with space' }));
    expect(spaced.description).toBe('Bad Request: secret token contains unallowed characters');
    const notUrl = await failure(bot.setWebhook({ url: 'ftp://a.example/' }));
    expect(notUrl.description).toMatch(/^Bad Request: bad webhook: /);
    // An empty url removes the webhook, as with the real API.
    await expect(bot.setWebhook({ url: '' })).resolves.toBe(true);
    expect(fake.webhook()).toBeNull();
  });

  it('builds realistic /start updates with increasing update_id', () => {
    const first = fake.startUpdate({ payload: 'abc', user: { id: 99, language_code: 'de' } });
    const second = fake.startUpdate();
    expect(second.update_id).toBe(first.update_id + 1);
    expect(first.message).toMatchObject({
      text: '/start abc',
      entities: [{ offset: 0, length: 6, type: 'bot_command' }],
      from: { id: 99, is_bot: false, language_code: 'de', first_name: expect.any(String) },
      chat: { id: 99, type: 'private' },
      date: expect.any(Number),
    });
    expect(second.message!.text).toBe('/start');
    expect(second.message!.from.id).not.toBe(99);
  });

  it('delivers updates to the webhook with the secret header, over HTTP too', async () => {
    const received: Array<{ secret: string | undefined; body: unknown }> = [];
    const app = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (c: Buffer) => chunks.push(c));
      request.on('end', () => {
        received.push({
          secret: request.headers['x-telegram-bot-api-secret-token'] as string | undefined,
          body: JSON.parse(Buffer.concat(chunks).toString()),
        });
        response.writeHead(received.length === 1 ? 200 : 500).end('{}');
      });
    });
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = app.address() as AddressInfo;
      await bot.setWebhook({ url: `http://127.0.0.1:${port}/hook`, secret_token: 'hook_secret' });
      const delivery = await fake.pressStart({ payload: 'k1', user: { id: 5 } });
      expect(delivery.status).toBe(200);
      expect(received[0]).toEqual({ secret: 'hook_secret', body: delivery.update });

      const viaHttp = await fetch(`${fake.url}/__fake__/press-start`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ payload: 'k2', user: { id: 6, language_code: 'ru' } }),
      });
      const answer = (await viaHttp.json()) as {
        ok: boolean;
        update: { message: { text: string } };
        delivery: { status: number };
      };
      expect(answer).toMatchObject({
        ok: true,
        update: { message: { text: '/start k2' } },
        delivery: { status: 500 },
      });
      // Telegram remembers a failed delivery.
      expect((await bot.getWebhookInfo()).last_error_message).toMatch(/500/);

      const calls = await fetch(`${fake.url}/__fake__/calls?method=setWebhook`);
      expect(((await calls.json()) as { calls: unknown[] }).calls).toHaveLength(1);
    } finally {
      app.closeAllConnections();
      await new Promise((resolve) => app.close(resolve));
    }
    await bot.deleteWebhook();
    await expect(fake.pressStart()).rejects.toThrow(/No webhook is set/);
  });
});
