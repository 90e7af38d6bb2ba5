import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGoogleCertsFake, type GoogleCertsFake } from '../fakes/google-certs.fake.js';
import { startTelegramBotApiFake, type TelegramBotApiFake } from '../fakes/telegram-bot-api.fake.js';
import { signedInPerson } from './posts-factories.js';
import { createTestApp, type TestApp } from './test-app.js';

/**
 * The standing robustness suite: every operation of the OpenAPI document the server publishes is
 * sent malformed input (wrong types, missing fields, huge and control-character strings, bad
 * uuids, invalid JSON, wrong content types) as a guest and as a signed-in person. Bad input is
 * the client's fault: the answer is a 4xx, never a 5xx. The values are drawn from a seeded
 * generator, so a run is repeatable and its request count bounded.
 */

interface Operation {
  method: string;
  path: string;
  pathParams: string[];
  queryParams: Array<{ name: string; schema: JsonSchema }>;
  body: JsonSchema | null;
  consumes: string[];
}

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  format?: string;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}

interface Probe {
  label: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

/** mulberry32: a small seeded generator, so every run sends the same requests. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const random = seededRandom(20_261_124);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

const HUGE = 'x'.repeat(100_000);
/** Strings no field should choke on: control characters, odd Unicode, injections, sizes. */
const NASTY_STRINGS = [
  '',
  'a\u0000b',
  '\u0000',
  '\u0007\u001b[31m',
  'line\nbreak\r\n\t',
  '\u007f\u0080\u009f',
  '\ud800',
  '\udfff\ud800',
  '\ufeff\u200b\u202e',
  '🙂'.repeat(300),
  "'; DROP TABLE users; --",
  '%00%ff%c0%af',
  '../../../etc/passwd',
  '__proto__',
  '-1',
  '1e309',
  'NaN',
  '00000000-0000-0000-0000-000000000000',
  '12345678-1234-1234-1234-1234567890123',
  'x'.repeat(300),
  HUGE,
];
const NASTY_VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  2 ** 53,
  -(2 ** 63),
  1e308,
  [],
  [null],
  ['a\u0000'],
  {},
  { __proto__: { polluted: true } },
  { a: { b: { c: [1, 2, 3] } } },
  ...NASTY_STRINGS,
];
const PATH_VALUES = [
  'not-a-uuid',
  '0',
  '-1',
  '99999999999999999999',
  '00000000-0000-0000-0000-000000000000',
  'c6f1d0c2-5b8e-4e43-9f5a-2f6f1b0f9a11',
  'C6F1D0C2-5B8E-4E43-9F5A-2F6F1B0F9A11',
  '%00',
  'a%00b',
  '%ff%fe',
  '%E2%80%AE',
  'x'.repeat(300),
  '..%2F..%2Fetc',
  '%20',
  '1.5',
  'null',
];

/** Headers the server reads (auth, cookies, language, keys, proxies), with odd values. */
const ODD_HEADERS: Array<[string, string]> = [
  ['authorization', 'TG '],
  ['authorization', 'TG query_id=x&user=%7B%22id%22%3A%22a%22%7D&auth_date=abc&hash=00'],
  ['authorization', `TG user=${encodeURIComponent('{"id":1e400}')}&hash=${'0'.repeat(64)}`],
  ['authorization', 'Bearer '],
  ['authorization', `Bearer ${'x'.repeat(5000)}`],
  ['authorization', 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOjEsInR5cGUiOiJhY2Nlc3MifQ.'],
  ['authorization', 'Basic Zm9vOmJhcg=='],
  ['cookie', 'timezone=%00; timezone=abc; refresh=junk'],
  ['cookie', 'timezone=99999999999999999999999'],
  ['cookie', `utm_source=${'x'.repeat(5000)}`],
  ['accept-language', '*;q=abc,,,;q=-1,zz-ZZ'],
  ['accept-language', 'x'.repeat(5000)],
  ['idempotency-key', 'x'.repeat(5000)],
  ['idempotency-key', 'a b c d e f g h'],
  ['x-forwarded-for', 'junk, 999.1.1.1, ::ffff:zz'],
  ['x-telegram-bot-api-secret-token', 'wrong'],
  ['range', 'bytes=99999999999-1,-5,abc'],
  ['if-none-match', '"x"'.repeat(1000)],
];

/** The operations of the published OpenAPI document. */
function operationsOf(document: {
  paths?: Record<string, Record<string, Record<string, unknown>>>;
}): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, spec] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const parameters = (spec.parameters ?? []) as Array<{ in: string; name: string; schema: JsonSchema }>;
      const content = ((spec.requestBody as { content?: Record<string, { schema?: JsonSchema }> })?.content ??
        {}) as Record<string, { schema?: JsonSchema }>;
      operations.push({
        method: method.toUpperCase(),
        path,
        pathParams: [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!),
        queryParams: parameters
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, schema: p.schema })),
        body: content['application/json']?.schema ?? null,
        consumes: Object.keys(content),
      });
    }
  }
  // Operations that end a session or an account go last, so the others still run signed in.
  const last = (op: Operation) => (op.method === 'DELETE' || /logout/.test(op.path) ? 1 : 0);
  return operations.sort((a, b) => last(a) - last(b));
}

/** A plausible value for a schema, so that one wrong field at a time is what gets tested. */
function plausible(schema: JsonSchema | undefined): unknown {
  if (!schema) return 'x';
  if (schema.enum?.length) return schema.enum[0];
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants?.length) return plausible(variants.find((v) => v.type !== 'null') ?? variants[0]);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object': {
      // Required fields only: a plausible optional one could fail validation (a phone of 'fuzz')
      // and hide what the probe's one bad field does further in.
      const value: Record<string, unknown> = {};
      for (const name of schema.required ?? []) value[name] = plausible(schema.properties?.[name]);
      return value;
    }
    default:
      if (schema.format === 'uuid') return 'c6f1d0c2-5b8e-4e43-9f5a-2f6f1b0f9a11';
      if (schema.format === 'email') return 'fuzz@example.com';
      return 'fuzz';
  }
}

function urlFor(operation: Operation, params: Record<string, string>, query = ''): string {
  const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? 'x');
  return query ? `${path}?${query}` : path;
}

/** Percent-encodes like a browser, lone surrogates as the bytes a careless client would send. */
const encodeQueryValue = (value: string) => {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
};

const json = (value: unknown) => ({ 'content-type': 'application/json', payload: JSON.stringify(value) });

/** Every malformed request for one operation; plausible values elsewhere. */
function probesFor(operation: Operation): Probe[] {
  const probes: Probe[] = [];
  const goodParams = Object.fromEntries(
    operation.pathParams.map((name) => [name, 'c6f1d0c2-5b8e-4e43-9f5a-2f6f1b0f9a11']),
  );
  const goodBody = operation.body ? plausible(operation.body) : undefined;
  const add = (label: string, url: string, body?: { 'content-type'?: string; payload?: string | Buffer }) =>
    probes.push({
      label,
      url,
      headers: body?.['content-type'] ? { 'content-type': body['content-type'] } : {},
      payload: body?.payload,
    });
  const withBody = ['POST', 'PUT', 'PATCH'].includes(operation.method);
  const plainBody = withBody && goodBody !== undefined ? json(goodBody) : undefined;

  for (const name of operation.pathParams) {
    for (const value of PATH_VALUES) {
      add(
        `path ${name}=${value.slice(0, 20)}`,
        urlFor(operation, { ...goodParams, [name]: value }),
        plainBody,
      );
    }
  }
  for (const { name } of operation.queryParams) {
    // A seeded dozen of the strings per parameter: query values all meet the same parsing first.
    const values = NASTY_STRINGS.filter((value) => value !== HUGE && random() < 0.5);
    for (const value of [...values, 'x'.repeat(5000)]) {
      add(`query ${name}`, urlFor(operation, goodParams, `${name}=${encodeQueryValue(value)}`), plainBody);
    }
    add(`query ${name} twice`, urlFor(operation, goodParams, `${name}=1&${name}=2`), plainBody);
    add(`query ${name}[]`, urlFor(operation, goodParams, `${name}[a]=1`), plainBody);
  }
  add('query junk', urlFor(operation, goodParams, '%zz=%&&=&a=%00'), plainBody);
  for (const [name, value] of ODD_HEADERS) {
    const base: { 'content-type'?: string; payload?: string } = plainBody ?? {};
    probes.push({
      label: `header ${name}: ${value.slice(0, 20)}`,
      url: urlFor(operation, goodParams),
      headers: { ...(base['content-type'] ? { 'content-type': base['content-type'] } : {}), [name]: value },
      payload: base.payload,
    });
  }

  const url = urlFor(operation, goodParams);
  if (withBody) {
    add('invalid JSON', url, { 'content-type': 'application/json', payload: '{"a": ' });
    add('JSON null', url, { 'content-type': 'application/json', payload: 'null' });
    add('JSON array', url, json([1, 2, 3]));
    add('JSON string', url, json('text'));
    add('JSON number', url, json(42));
    add('empty object', url, json({}));
    add('deep nesting', url, {
      'content-type': 'application/json',
      payload: `${'['.repeat(5000)}${']'.repeat(5000)}`,
    });
    add('text/plain', url, { 'content-type': 'text/plain', payload: 'hello' });
    add('form', url, { 'content-type': 'application/x-www-form-urlencoded', payload: 'a=1&b=%00' });
    add('xml', url, { 'content-type': 'application/xml', payload: '<a/>' });
    add('no boundary', url, { 'content-type': 'multipart/form-data', payload: 'x' });
    add('bad multipart', url, {
      'content-type': 'multipart/form-data; boundary=zz',
      payload:
        '--zz\r\nContent-Disposition: form-data; name="file"; filename="a\u0000.jpg"\r\n\r\nabc\r\n--z',
    });
    add('utf-8 garbage', url, {
      'content-type': 'application/json; charset=utf-8',
      payload: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
    });
    add('charset latin1', url, { 'content-type': 'application/json; charset=latin1', payload: '{}' });

    const properties = Object.keys(operation.body?.properties ?? {});
    for (const name of properties) {
      for (const value of NASTY_VALUES) {
        add(`body ${name}`, url, json({ ...(goodBody as object), [name]: value }));
      }
      // A field missing while the rest is plausible.
      const rest = { ...(goodBody as Record<string, unknown>) };
      delete rest[name];
      add(`body without ${name}`, url, json(rest));
    }
    // A few random mixes of bad values in every field at once.
    for (let i = 0; i < 8 && properties.length > 0; i++) {
      add(
        `body mix ${i}`,
        url,
        json(Object.fromEntries(properties.map((name) => [name, pick(NASTY_VALUES)]))),
      );
    }
    add('unknown fields', url, json({ ...(goodBody as object), extra: HUGE, constructor: { prototype: 1 } }));
  } else {
    add('plain', url);
    add('body on a bodiless method', url, json({ a: 1 }));
  }
  return probes;
}

let t: TestApp;
let google: GoogleCertsFake;
let telegram: TelegramBotApiFake;

beforeAll(async () => {
  [google, telegram] = await Promise.all([startGoogleCertsFake(), startTelegramBotApiFake()]);
  t = await createTestApp({
    env: {
      GOOGLE_CLIENT_ID: google.clientId,
      GOOGLE_CERTS_URL: google.url,
      ...telegram.env,
      TELEGRAM_WEBHOOK_SECRET: 'fuzz-webhook-secret',
      ENGINE_SIMPLE: 'test',
      RATE_LIMIT_LOGIN_PER_IP: '100000',
      RATE_LIMIT_LOGIN_PER_EMAIL: '100000',
      RATE_LIMIT_REGISTER_PER_IP: '100000',
      RATE_LIMIT_EMAIL_PER_IP: '100000',
      RATE_LIMIT_EMAIL_PER_ADDRESS: '100000',
      RATE_LIMIT_UPLOADS_PER_USER: '100000',
      RATE_LIMIT_PROMPT_HELPER_PER_USER: '100000',
    },
  });
});
afterAll(async () => {
  await t?.close();
  await Promise.all([google?.close(), telegram?.close()]);
});

describe('malformed input to every operation of the OpenAPI document', () => {
  it('is never answered with a 5xx, as a guest or signed in', async () => {
    const document = t.app.swagger() as Parameters<typeof operationsOf>[0];
    const operations = operationsOf(document);
    // The document is the list: if it ever came out empty, this suite would prove nothing.
    expect(operations.length).toBeGreaterThan(40);

    const failures: string[] = [];
    let sent = 0;
    for (const operation of operations) {
      // A fresh person per operation: one operation may sign out or delete its account.
      const person = await signedInPerson(t);
      for (const probe of probesFor(operation)) {
        for (const [who, headers] of identitiesFor(person.headers)) {
          const response = await t.app.inject({
            method: operation.method as 'GET',
            url: probe.url,
            headers: { ...headers, ...probe.headers },
            payload: probe.payload,
          });
          sent++;
          if (response.statusCode >= 500) {
            failures.push(
              `${operation.method} ${operation.path} [${probe.label}] as ${who} → ${response.statusCode} ${response.body.slice(0, 200)}`,
            );
          }
        }
      }
    }
    expect(failures).toEqual([]);
    // Bounded: about a hundred malformed requests per operation, never an explosion of them.
    expect(sent).toBeLessThan(15000);
  }, 240_000);
});

/**
 * The signed-in person always; a guest or a broken token on a seeded quarter of the probes (they
 * stop at authentication on most routes, so every probe would mostly repeat the same refusal).
 */
function identitiesFor(personHeaders: Record<string, string>): Array<[string, Record<string, string>]> {
  const roll = random();
  const asUser: [string, Record<string, string>] = ['user', personHeaders];
  if (roll < 0.15) return [asUser, ['guest', {}]];
  if (roll < 0.25) return [asUser, ['bad token', { authorization: 'Bearer a.b.c' }]];
  return [asUser];
}
