import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { savedQueryStrings } from '../../shared/db/schema.js';
import { bearer, createActiveUser, login } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

let t: TestApp;
let auth: Record<string, string>;
let userId: number;
beforeAll(async () => {
  t = await createTestApp();
  const user = await createActiveUser(t);
  userId = user.id;
  auth = bearer((await login(t, user.email!, user.password)).access);
});
afterAll(() => t.close());

const save = (payload: unknown, headers: Record<string, string> = auth) =>
  t.app.inject({ method: 'POST', url: '/api/qs/', payload: payload as object, headers });
const read = (query: string) => t.app.inject({ method: 'GET', url: `/api/qs/${query}` });

describe('POST /api/qs/', () => {
  it('saves a query string without its leading ? and answers its id and start parameter', async () => {
    const response = await save({ qs: '?utm_source=tg&model=42&style=noir' });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9_-]{1,16}$/),
      qs: 'utm_source=tg&model=42&style=noir',
      start_param: `qs_${body.id}`,
    });
    const [row] = await t.deps.db.select().from(savedQueryStrings).where(eq(savedQueryStrings.id, body.id));
    expect(row).toMatchObject({ qs: 'utm_source=tg&model=42&style=noir', userId });
  });

  it('gives every save its own id, the same query string too', async () => {
    const [a, b] = [(await save({ qs: 'a=1' })).json(), (await save({ qs: 'a=1' })).json()];
    expect(a.id).not.toBe(b.id);
  });

  it('needs a signed-in user', async () => {
    const response = await save({ qs: 'a=1' }, {});
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({
      detail: 'Authentication credentials were not provided.',
      code: 'auth.not_authenticated',
    });
    expect(response.headers['www-authenticate']).toBe('Bearer realm="api"');
    const badToken = await save({ qs: 'a=1' }, bearer('not-a-jwt'));
    expect(badToken.statusCode).toBe(401);
    expect(badToken.json().code).toBe('auth.token_invalid');
  });

  it('answers a missing, blank or over-long query string with DRF field errors', async () => {
    const cases: Array<[unknown, string]> = [
      [{}, 'This field is required.'],
      [{ qs: '' }, 'This field may not be blank.'],
      // Nothing left once the ? is taken off.
      [{ qs: ' ? ' }, 'This field may not be blank.'],
      [{ qs: 'a'.repeat(2001) }, 'Ensure this field has no more than 2000 characters.'],
      [{ qs: 42 }, 'Not a valid string.'],
    ];
    for (const [payload, message] of cases) {
      const response = await save(payload);
      expect({ payload, status: response.statusCode, body: response.json() }).toEqual({
        payload,
        status: 400,
        body: { qs: [message], code: 'common.validation' },
      });
    }
    expect((await save({ qs: 'a'.repeat(2000) })).statusCode).toBe(201);
  });
});

describe('POST /api/qs/ limit', () => {
  it('answers 429 common.throttled past the per-person limit, and saves nothing more; others still save', async () => {
    const user = await createActiveUser(t);
    const headers = bearer((await login(t, user.email!, user.password)).access);
    const { qsPerUser: limit } = t.deps.config.rateLimits;
    for (let i = 0; i < limit; i++) expect((await save({ qs: `n=${i}` }, headers)).statusCode).toBe(201);
    const refused = await save({ qs: 'n=over' }, headers);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'common.throttled' });
    expect(refused.headers['retry-after']).toBeDefined();
    const saved = await t.deps.db
      .select()
      .from(savedQueryStrings)
      .where(eq(savedQueryStrings.userId, user.id));
    expect(saved).toHaveLength(limit);
    expect((await save({ qs: 'n=other' })).statusCode).toBe(201);
  });
});

describe('GET /api/qs/', () => {
  it('returns the saved query string to anyone holding the id', async () => {
    const { id } = (await save({ qs: '?ref=abc&screen=styles' })).json();
    const response = await read(`?id=${id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ qs: 'ref=abc&screen=styles' });
  });

  it('answers 404 qs.not_found for an unknown id, or one we could never have made', async () => {
    for (const id of ['nosuchid0000', 'x'.repeat(17), 'a.b', encodeURIComponent("' OR 1=1 --")]) {
      const response = await read(`?id=${id}`);
      expect({ id, status: response.statusCode, body: response.json() }).toEqual({
        id,
        status: 404,
        body: { detail: 'Not found.', code: 'qs.not_found' },
      });
    }
  });

  it('answers a missing id with a field error', async () => {
    const missing = await read('');
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ id: ['This field is required.'], code: 'common.validation' });
    expect((await read('?id=')).json()).toEqual({
      id: ['This field may not be blank.'],
      code: 'common.validation',
    });
  });
});
