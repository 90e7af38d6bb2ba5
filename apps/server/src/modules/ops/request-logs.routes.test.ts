import { Writable } from 'node:stream';
import { sign } from '@telegram-apps/init-data-node';
import type { JobHelpers } from 'graphile-worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startTelegramBotApiFake, type TelegramBotApiFake } from '../../fakes/telegram-bot-api.fake.js';
import { defineJob, toTask } from '../../shared/jobs.js';
import { createLogger } from '../../shared/logger.js';
import { bearer, uniqueEmail } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/** Every line the app logs, parsed, at the most verbose level. */
function createLogCapture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return {
    logger: createLogger('trace', 'test', stream),
    text: () => lines.join('\n'),
    entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

let fake: TelegramBotApiFake;
let t: TestApp;
const capture = createLogCapture();
beforeAll(async () => {
  fake = await startTelegramBotApiFake();
  t = await createTestApp({ env: { ...fake.env }, overrides: { logger: capture.logger } });
});
afterAll(async () => {
  await t?.close();
  await fake.close();
});

const signUp = (email: string, password: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/users/', headers, payload: { email, password } });

describe('request ids', () => {
  it('keeps an acceptable X-Request-Id, echoes it, and logs the request under it', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/users/geo/',
      headers: { 'x-request-id': 'lb-7f3a.1' },
    });
    expect(response.headers['x-request-id']).toBe('lb-7f3a.1');
    const lines = capture.entries().filter((entry) => entry.reqId === 'lb-7f3a.1');
    expect(lines.map((line) => line.msg)).toEqual(
      expect.arrayContaining(['incoming request', 'request completed']),
    );
  });

  it('replaces a missing, long or unsafe X-Request-Id with a uuid of its own', async () => {
    for (const incoming of [undefined, 'x'.repeat(65), 'evil\u0007id', 'a b', '"quoted"']) {
      const response = await t.app.inject({
        method: 'GET',
        url: '/healthz',
        headers: incoming === undefined ? {} : { 'x-request-id': incoming },
      });
      expect(response.headers['x-request-id']).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      );
    }
  });

  it('carries the request id into the jobs the request adds', async () => {
    const email = uniqueEmail('reqid');
    const response = await signUp(email, 'Correct-Horse-42', { 'x-request-id': 'signup-5e1' });
    expect(response.statusCode).toBe(201);
    const { rows } = await t.deps.database.pool.query(
      `SELECT job.payload FROM graphile_worker._private_jobs AS job
       JOIN graphile_worker._private_tasks AS task ON task.id = job.task_id
       WHERE task.identifier = 'users:send_activation_email' AND (job.payload->>'userId')::int = $1`,
      [response.json().id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].payload).toMatchObject({ request_id: 'signup-5e1' });
    // The job still runs: the extra field is not part of its payload schema.
    await t.runJobs();
    expect((await t.readOutbox()).some((mail) => mail.to.includes(email))).toBe(true);
  });

  it("logs a job's lines under the id of the request that added it", async () => {
    const jobCapture = createLogCapture();
    const job = defineJob({ name: 'test:log', payload: z.object({ n: z.number() }), maxAttempts: 1 });
    const task = toTask(job, async ({ n }) => {
      jobCapture.logger.info({ n }, 'job ran');
    });
    const helpers = { job: { attempts: 1, max_attempts: 1 } } as unknown as JobHelpers;
    await task({ n: 1, request_id: 'req-from-api' }, helpers);
    await task({ n: 2 }, helpers);
    const [first, second] = jobCapture.entries();
    expect(first).toMatchObject({ msg: 'job ran', n: 1, reqId: 'req-from-api' });
    expect(second).toMatchObject({ msg: 'job ran', n: 2 });
    expect(second).not.toHaveProperty('reqId');
  });
});

describe('no secrets in logs', () => {
  it('keeps passwords, tokens, cookies and Telegram init data out of the log of a sign-up, sign-in, refresh and Mini App sign-in', async () => {
    const email = uniqueEmail('secrets');
    const password = 'Sekrit-Passw0rd-991';
    expect((await signUp(email, password)).statusCode).toBe(201);
    await t.deps.database.pool.query('UPDATE users SET is_active = true WHERE email = $1', [email]);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/token/login/',
      headers: { cookie: 'session=cookie-secret-123' },
      payload: { email, password },
    });
    expect(signIn.statusCode).toBe(200);
    const { access, refresh } = signIn.json();
    const refreshed = await t.app.inject({ method: 'POST', url: '/api/auth/refresh/', payload: { refresh } });
    expect(refreshed.statusCode).toBe(200);
    // A refresh token refused (reused) and a bad password are logged as failures, still without them.
    await t.app.inject({ method: 'POST', url: '/api/auth/refresh/', payload: { refresh } });
    await t.app.inject({
      method: 'POST',
      url: '/api/token/login/',
      payload: { email, password: `${password}x` },
    });
    await t.app.inject({ method: 'GET', url: '/api/users/me/', headers: bearer(access) });

    const initData = sign(
      { query_id: 'AAHdF6IQAAAAAN0XohDhrOrc', user: { id: 777_000_001, first_name: 'Ада' } } as Parameters<
        typeof sign
      >[0],
      fake.token,
      new Date(Date.now() - 5000),
    );
    const viaHeader = await t.app.inject({
      method: 'POST',
      url: '/api/auth/base/',
      headers: { authorization: `TG ${initData}` },
    });
    expect(viaHeader.statusCode).toBe(200);
    const viaBody = await t.app.inject({
      method: 'POST',
      url: '/api/auth/base/',
      payload: { init_data: initData },
    });
    expect(viaBody.statusCode).toBe(200);
    await t.app.inject({
      method: 'GET',
      url: '/api/users/me/',
      headers: { authorization: `TG ${initData}` },
    });
    await t.runJobs();

    const log = capture.text();
    expect(log).toContain('request completed');
    const hash = new URLSearchParams(initData).get('hash')!;
    for (const secret of [
      password,
      access,
      refresh,
      refreshed.json().access,
      refreshed.json().refresh,
      viaHeader.json().access,
      viaBody.json().refresh,
      'cookie-secret-123',
      hash,
      fake.token,
    ]) {
      expect(log).not.toContain(secret);
    }
  });

  it('redacts credential headers, cookies and every field that carries a password, a token or init data', () => {
    const own = createLogCapture();
    const secrets = {
      password: 'pw-1-secret',
      new_password: 'pw-2-secret',
      refresh: 'refresh-3-secret',
      access: 'access-4-secret',
      token: 'token-5-secret',
      initData: 'init-6-secret',
      init_data: 'init-7-secret',
      tgData: 'tg-8-secret',
      credential: 'google-9-secret',
    };
    own.logger.info({ req: { headers: { authorization: 'Bearer hdr-secret', cookie: 'c=cookie-secret' } } });
    own.logger.info({ headers: { authorization: 'TG hdr2-secret' } }, 'outgoing call');
    own.logger.info({ body: secrets }, 'a body');
    own.logger.info({ req: { body: secrets } }, 'a request with its body');
    own.logger.info(secrets, 'fields at the top');
    own.logger.info({ res: { headers: { 'set-cookie': 'refresh=set-cookie-secret' } } });
    const log = own.text();
    for (const secret of [
      ...Object.values(secrets),
      'hdr-secret',
      'cookie-secret',
      'hdr2-secret',
      'set-cookie-secret',
    ]) {
      expect(log).not.toContain(secret);
    }
    expect(log).toContain('[redacted]');
  });
});
