import { createHmac } from 'node:crypto';
import { sign } from '@telegram-apps/init-data-node';
import { describe, expect, it } from 'vitest';
import {
  botStartLink,
  checkInitData,
  INIT_DATA_CLOCK_SKEW_SECONDS,
  generateAuthKey,
  hashAuthKey,
  isAuthKeyPayload,
  isWebhookSecretFormatValid,
  isWebhookSecretValid,
  openAppButton,
  parseStartCommand,
} from './telegram.models.js';

// Test vector A1 of the research notes (from the tma.js docs): signed in 2022 with this token.
const VECTOR_TOKEN = '5768337691:AAH5YkoiEuPk8-FZa32hStHTqXiLPtAEhx8';
const VECTOR_INIT_DATA =
  'query_id=AAHdF6IQAAAAAN0XohDhrOrc&user=%7B%22id%22%3A279058397%2C%22first_name%22%3A%22Vladislav%22%2C%22last_name%22%3A%22Kibenko%22%2C%22username%22%3A%22vdkfrost%22%2C%22language_code%22%3A%22ru%22%2C%22is_premium%22%3Atrue%7D&auth_date=1662771648&hash=c501b71e775f74ce10e377dea85a7ea24ecd640b223ea86dfe453e0eaed2e2b2';
const TOKEN = '123456789:AAtest-token_for_unit_tests_only_xyz';

/** Signs arbitrary raw fields the way Telegram does (sign() only takes well-formed objects). */
function signFields(fields: Record<string, string>, token: string): string {
  const dataCheckString = Object.entries(fields)
    .map(([key, value]) => `${key}=${value}`)
    .sort()
    .join('\n');
  const secret = createHmac('sha256', 'WebAppData').update(token).digest();
  const hash = createHmac('sha256', secret).update(dataCheckString).digest('hex');
  return new URLSearchParams({ ...fields, hash }).toString();
}

describe('parseStartCommand', () => {
  it('reads the payload of /start and /start@bot', () => {
    expect(parseStartCommand('/start abc_DEF-123')).toEqual({ payload: 'abc_DEF-123' });
    expect(parseStartCommand('/start@mirra_bot abc')).toEqual({ payload: 'abc' });
    expect(parseStartCommand('  /start   abc  ')).toEqual({ payload: 'abc' });
    expect(parseStartCommand(`/start ${'a'.repeat(64)}`)).toEqual({ payload: 'a'.repeat(64) });
  });

  it('gives a null payload for a plain /start', () => {
    expect(parseStartCommand('/start')).toEqual({ payload: null });
    expect(parseStartCommand('/start@mirra_bot')).toEqual({ payload: null });
  });

  it('is null for anything that is not a well-formed /start', () => {
    for (const text of [
      undefined,
      '',
      'hello',
      '/help',
      '/started',
      'say /start abc',
      '/start a b',
      '/start abc!',
      '/start абв',
      `/start ${'a'.repeat(65)}`,
    ]) {
      expect(parseStartCommand(text), String(text)).toBeNull();
    }
  });
});

describe('isWebhookSecretValid', () => {
  it('accepts exactly the configured secret', () => {
    expect(isWebhookSecretValid('s3cret_-X', 's3cret_-X')).toBe(true);
  });

  it('refuses a different, differently long, missing or repeated header', () => {
    expect(isWebhookSecretValid('s3cret', 's3creT')).toBe(false);
    expect(isWebhookSecretValid('s3cret', 's3cret-and-more')).toBe(false);
    expect(isWebhookSecretValid('s3cret', '')).toBe(false);
    expect(isWebhookSecretValid('s3cret', undefined)).toBe(false);
    expect(isWebhookSecretValid('s3cret', ['s3cret', 's3cret'])).toBe(false);
  });

  it('refuses everything when no secret is configured', () => {
    expect(isWebhookSecretValid(undefined, '')).toBe(false);
    expect(isWebhookSecretValid(undefined, 'anything')).toBe(false);
    expect(isWebhookSecretValid('', '')).toBe(false);
  });
});

describe('isWebhookSecretFormatValid', () => {
  it('allows 1-256 characters of A-Z a-z 0-9 _ -, as Telegram does', () => {
    expect(isWebhookSecretFormatValid('a')).toBe(true);
    expect(isWebhookSecretFormatValid('A-z_09'.repeat(40))).toBe(true);
    expect(isWebhookSecretFormatValid('x'.repeat(256))).toBe(true);
    expect(isWebhookSecretFormatValid('')).toBe(false);
    expect(isWebhookSecretFormatValid('x'.repeat(257))).toBe(false);
    expect(isWebhookSecretFormatValid('123:ABC')).toBe(false);
    expect(isWebhookSecretFormatValid('has space')).toBe(false);
  });
});

describe('generateAuthKey', () => {
  it('makes 43-character base64url keys that fit a t.me start link', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateAuthKey()));
    expect(keys.size).toBe(200);
    for (const key of keys) {
      expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(isAuthKeyPayload(key)).toBe(true);
      expect(parseStartCommand(`/start ${key}`)).toEqual({ payload: key });
    }
  });

  it('is stored only as its sha256', () => {
    expect(hashAuthKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('tells keys from other start payloads', () => {
    expect(isAuthKeyPayload('ref_abcd1234')).toBe(false);
    expect(isAuthKeyPayload('promo')).toBe(false);
    expect(isAuthKeyPayload('a'.repeat(44))).toBe(false);
  });

  it('builds the deep link', () => {
    expect(botStartLink('mirra_bot', 'KEY')).toBe('https://t.me/mirra_bot?start=KEY');
  });
});

describe('checkInitData', () => {
  const now = new Date('2026-03-01T12:00:00Z');
  const user = { id: 279058397, first_name: 'Ada', language_code: 'ru', allows_write_to_pm: true };

  it('validates the research test vector A1 with the freshness check off', () => {
    const result = checkInitData(VECTOR_INIT_DATA, VECTOR_TOKEN, { now, maxAgeSeconds: 0 });
    expect(result).toEqual({
      ok: true,
      user: {
        id: 279058397,
        first_name: 'Vladislav',
        last_name: 'Kibenko',
        username: 'vdkfrost',
        language_code: 'ru',
        is_premium: true,
      },
      startParam: null,
      authDate: new Date(1662771648 * 1000),
    });
    // The same data is years old for any real max age, and foreign to any other token.
    expect(checkInitData(VECTOR_INIT_DATA, VECTOR_TOKEN, { now, maxAgeSeconds: 3600 })).toEqual({
      ok: false,
      reason: 'expired',
    });
    expect(checkInitData(VECTOR_INIT_DATA, TOKEN, { now, maxAgeSeconds: 0 })).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });

  it('accepts what sign() makes, with the user and start_param', () => {
    const raw = sign({ user, start_param: 'ref_abcd2345' }, TOKEN, new Date(now.getTime() - 60_000));
    const result = checkInitData(raw, TOKEN, { now, maxAgeSeconds: 3600 });
    expect(result).toMatchObject({ ok: true, user, startParam: 'ref_abcd2345' });
  });

  it('says expired only past the max age', () => {
    const raw = sign({ user }, TOKEN, new Date(now.getTime() - 3600_000));
    expect(checkInitData(raw, TOKEN, { now, maxAgeSeconds: 3600 }).ok).toBe(true);
    const later = new Date(now.getTime() + 1000);
    expect(checkInitData(raw, TOKEN, { now: later, maxAgeSeconds: 3600 })).toEqual({
      ok: false,
      reason: 'expired',
    });
  });

  it('refuses data dated ahead of the clock by more than a few minutes of skew, even with the age check off', () => {
    const skew = INIT_DATA_CLOCK_SKEW_SECONDS * 1000;
    const slightlyAhead = sign({ user }, TOKEN, new Date(now.getTime() + skew - 5_000));
    expect(checkInitData(slightlyAhead, TOKEN, { now, maxAgeSeconds: 3600 }).ok).toBe(true);
    for (const ahead of [skew + 5_000, 365 * 86_400_000]) {
      const future = sign({ user }, TOKEN, new Date(now.getTime() + ahead));
      for (const maxAgeSeconds of [3600, 0]) {
        expect(checkInitData(future, TOKEN, { now, maxAgeSeconds })).toEqual({
          ok: false,
          reason: 'invalid',
        });
      }
    }
  });

  it('refuses tampered data as invalid, even when it is old as well', () => {
    const fresh = sign({ user }, TOKEN, now);
    const old = sign({ user }, TOKEN, new Date(now.getTime() - 86_400_000));
    for (const raw of [fresh, old]) {
      const tampered = raw.replace('%22Ada%22', '%22Eve%22');
      expect(tampered).not.toBe(raw);
      expect(checkInitData(tampered, TOKEN, { now, maxAgeSeconds: 3600 })).toEqual({
        ok: false,
        reason: 'invalid',
      });
    }
    // A field added after signing, and a hash made with another bot's token.
    expect(checkInitData(`${fresh}&start_param=ref_evil`, TOKEN, { now, maxAgeSeconds: 0 }).ok).toBe(false);
    expect(checkInitData(sign({ user }, 'other:token', now), TOKEN, { now, maxAgeSeconds: 0 }).ok).toBe(
      false,
    );
  });

  it('refuses malformed data without throwing', () => {
    const valid = sign({ user }, TOKEN, now);
    for (const raw of [
      '',
      'garbage',
      'hash=',
      valid.replace(/hash=[0-9a-f]+/, 'hash=zz'),
      valid.replace(/&hash=[0-9a-f]+/, ''),
      valid.replace(/hash=([0-9a-f]+)/, 'hash=$1ab'),
    ]) {
      expect(checkInitData(raw, TOKEN, { now, maxAgeSeconds: 0 }), raw).toEqual({
        ok: false,
        reason: 'invalid',
      });
    }
  });

  it('refuses correctly signed fields that do not parse', () => {
    const cases: Array<Record<string, string>> = [
      { user: '{"first_name":"No id"}', auth_date: '1772366400' },
      { user: '{not json', auth_date: '1772366400' },
      { user: '{"id":"42"}', auth_date: '1772366400' },
      { user: '{"id":42}', auth_date: 'yesterday' },
      { user: '{"id":42}' },
    ];
    for (const fields of cases) {
      expect(checkInitData(signFields(fields, TOKEN), TOKEN, { now, maxAgeSeconds: 0 }), fields.user).toEqual(
        {
          ok: false,
          reason: 'invalid',
        },
      );
    }
    expect(
      checkInitData(signFields({ user: '{"id":42}', auth_date: '1772366400' }, TOKEN), TOKEN, {
        now,
        maxAgeSeconds: 0,
      }),
    ).toMatchObject({ ok: true, user: { id: 42 } });
  });

  it('accepts data without a user; deciding what that means is the caller’s job', () => {
    const raw = sign({ chat_type: 'sender', chat_instance: '123' } as never, TOKEN, now);
    expect(checkInitData(raw, TOKEN, { now, maxAgeSeconds: 0 })).toMatchObject({ ok: true, user: null });
  });
});

describe('openAppButton', () => {
  it('is a web_app button for https and nothing otherwise', () => {
    expect(openAppButton('https://mirra.app/', 'Open')).toEqual({
      text: 'Open',
      web_app: { url: 'https://mirra.app/' },
    });
    expect(openAppButton('http://localhost:3000/', 'Open')).toBeNull();
    expect(openAppButton(undefined, 'Open')).toBeNull();
  });
});
