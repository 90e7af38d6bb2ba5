import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { notifications, users } from '../../shared/db/schema.js';
import { bearer, createActiveUser, login } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import type { TelegramBotApi } from '../telegram/index.js';
import { notifyUser } from './notifications.usecases.js';

// Preferences over HTTP, and each sender (the in-app list, the Telegram bot, email) honouring them.
let t: TestApp;
const sendMessage = vi.fn(async () => ({ message_id: 1 }));
beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: 'https://mirra.test' } });
  t.deps.telegramBot = { sendMessage } as unknown as TelegramBotApi;
});
afterAll(() => t.close());
beforeEach(() => sendMessage.mockClear());

let chatIds = 7_100_000;
async function signedInUser(options: { telegram?: boolean } = {}) {
  const user = await createActiveUser(t, { firstName: 'Ute' });
  const chatId = (chatIds += 1);
  if (options.telegram) {
    await t.deps.db
      .update(users)
      .set({ telegramId: chatId, telegramAllowsWrite: true })
      .where(eq(users.id, user.id));
  }
  const { access } = await login(t, user.email!, user.password);
  return { user, chatId, headers: bearer(access) };
}

const getPrefs = (headers: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: '/api/notifications/preferences/', headers });
const putPrefs = (headers: Record<string, string>, payload: unknown) =>
  t.app.inject({
    method: 'PUT',
    url: '/api/notifications/preferences/',
    headers,
    payload: payload as object,
  });
const listed = async (headers: Record<string, string>) =>
  (await t.app.inject({ method: 'GET', url: '/api/notifications/', headers })).json() as {
    results: Array<{ kind: string; data: Record<string, unknown> }>;
    unread: number;
  };
const outboxTo = async (email: string) => (await t.readOutbox()).filter((mail) => mail.to === email);

describe('notification preferences over HTTP', () => {
  it("answers today's behaviour as the defaults, and the channels the account has", async () => {
    const { headers } = await signedInUser();
    const response = await getPrefs(headers);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.channels).toEqual({ in_app: true, telegram: false, email: true });
    expect(body.categories).toContainEqual({
      category: 'models',
      in_app: true,
      telegram: true,
      email: false,
    });
    expect(body.categories).toContainEqual({
      category: 'subscribers',
      in_app: true,
      telegram: false,
      email: false,
    });
    expect(body.categories).toHaveLength(7);
  });

  it('offers the Telegram channel once Telegram is linked', async () => {
    const { headers } = await signedInUser({ telegram: true });
    expect((await getPrefs(headers)).json().channels.telegram).toBe(true);
  });

  it("saves one user's changes, leaving the rest and other users as they were", async () => {
    const me = await signedInUser();
    const other = await signedInUser();
    const saved = await putPrefs(me.headers, {
      changes: [
        { category: 'royalties', channel: 'in_app', enabled: false },
        { category: 'royalties', channel: 'email', enabled: true },
      ],
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().categories).toContainEqual({
      category: 'royalties',
      in_app: false,
      telegram: false,
      email: true,
    });
    // Turning it back on overwrites the stored choice.
    await putPrefs(me.headers, { changes: [{ category: 'royalties', channel: 'email', enabled: false }] });
    const after = (await getPrefs(me.headers)).json();
    expect(after.categories).toContainEqual({
      category: 'royalties',
      in_app: false,
      telegram: false,
      email: false,
    });
    expect(after.categories).toContainEqual({
      category: 'models',
      in_app: true,
      telegram: true,
      email: false,
    });
    expect((await getPrefs(other.headers)).json().categories).toContainEqual({
      category: 'royalties',
      in_app: true,
      telegram: false,
      email: false,
    });
  });

  it.each([
    ['an unknown category', { changes: [{ category: 'sign_in', channel: 'email', enabled: false }] }],
    ['an unknown channel', { changes: [{ category: 'royalties', channel: 'sms', enabled: false }] }],
    [
      'a value that is not a boolean',
      { changes: [{ category: 'royalties', channel: 'email', enabled: 'no' }] },
    ],
    ['no change at all', { changes: [] }],
    ['no body', {}],
  ])('refuses %s with 400 and changes nothing', async (_name, payload) => {
    const { headers } = await signedInUser();
    const response = await putPrefs(headers, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('common.validation');
    expect((await getPrefs(headers)).json().categories).toContainEqual({
      category: 'royalties',
      in_app: true,
      telegram: false,
      email: false,
    });
  });

  it('answers 401 to a guest', async () => {
    expect((await getPrefs({})).statusCode).toBe(401);
    expect(
      (await putPrefs({}, { changes: [{ category: 'royalties', channel: 'email', enabled: false }] }))
        .statusCode,
    ).toBe(401);
  });
});

describe('senders honour the preferences', () => {
  it('in the app: a category turned off is not listed or counted, while its email still goes out', async () => {
    const { user, headers } = await signedInUser();
    await putPrefs(headers, {
      changes: [
        { category: 'subscribers', channel: 'in_app', enabled: false },
        { category: 'subscribers', channel: 'email', enabled: true },
      ],
    });
    const notice = {
      userId: user.id,
      kind: 'new_subscriber' as const,
      data: { user_name: 'Rosa' },
      dedupeKey: `pref-sub:${user.id}`,
    };
    expect(await notifyUser(t.deps.db, notice)).toBe(true);
    // The same event again is still recognised as told, though nothing was listed.
    expect(await notifyUser(t.deps.db, notice)).toBe(false);
    // Born read, at the moment it was recorded (one clock for both stamps).
    const [hidden] = await t.deps.db
      .select({ createdAt: notifications.createdAt, readAt: notifications.readAt })
      .from(notifications)
      .where(eq(notifications.dedupeKey, notice.dedupeKey));
    expect(hidden!.readAt).toEqual(hidden!.createdAt);
    await t.runJobs();
    expect(await listed(headers)).toMatchObject({ results: [], unread: 0 });
    const mails = await outboxTo(user.email!);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('News from Mirra');
    expect(mails[0]!.text).toContain('Rosa subscribed to you on Mirra.');
    expect(mails[0]!.text).toContain('https://mirra.test/settings/notifications/');
  });

  it('the Telegram bot: skips a category turned off, even after the message was queued, and still lists it in the app', async () => {
    const { user, chatId, headers } = await signedInUser({ telegram: true });
    await notifyUser(t.deps.db, {
      userId: user.id,
      kind: 'model_ready',
      data: { model_uuid: '0b6f1a52-3f4e-4a57-9d3c-2a1f6c1e8b11', model_name: 'Me' },
      dedupeKey: `pref-model:${user.id}:1`,
    });
    await t.runJobs();
    // On by default, as before preferences existed.
    expect(sendMessage).toHaveBeenCalledTimes(1);
    expect(sendMessage).toHaveBeenCalledWith(
      expect.objectContaining({ chat_id: chatId, text: expect.stringContaining('“Me”') }),
    );

    sendMessage.mockClear();
    await notifyUser(t.deps.db, {
      userId: user.id,
      kind: 'model_ready',
      data: { model_uuid: '0b6f1a52-3f4e-4a57-9d3c-2a1f6c1e8b12', model_name: 'Me again' },
      dedupeKey: `pref-model:${user.id}:2`,
    });
    // Turned off while the message waits in the queue: the sender reads the choice when it runs.
    await putPrefs(headers, { changes: [{ category: 'models', channel: 'telegram', enabled: false }] });
    await t.runJobs();
    expect(sendMessage).not.toHaveBeenCalled();
    const page = await listed(headers);
    expect(page.results.map((n) => n.data.model_name)).toEqual(['Me again', 'Me']);
  });

  it('email: sends a category the user turned on and stops when they turn it off; the app still lists both', async () => {
    const { user, headers } = await signedInUser({ telegram: true });
    await putPrefs(headers, { changes: [{ category: 'royalties', channel: 'email', enabled: true }] });
    await notifyUser(t.deps.db, {
      userId: user.id,
      kind: 'royalty',
      data: { amount: 3, user_name: 'Ivo' },
      dedupeKey: `pref-royalty:${user.id}:1`,
    });
    await t.runJobs();
    const first = await outboxTo(user.email!);
    expect(first).toHaveLength(1);
    expect(first[0]!.text).toContain('Hello, Ute');
    expect(first[0]!.text).toContain('Ivo made a picture from your post: you earned 3 credits.');

    await putPrefs(headers, { changes: [{ category: 'royalties', channel: 'email', enabled: false }] });
    await notifyUser(t.deps.db, {
      userId: user.id,
      kind: 'royalty',
      data: { amount: 4, user_name: 'Ivo' },
      dedupeKey: `pref-royalty:${user.id}:2`,
    });
    await t.runJobs();
    expect(await outboxTo(user.email!)).toHaveLength(1);
    expect((await listed(headers)).results.map((n) => n.data.amount)).toEqual([4, 3]);
    // Royalties are not sent by the bot unless asked for.
    expect(sendMessage).not.toHaveBeenCalled();
  });
});
