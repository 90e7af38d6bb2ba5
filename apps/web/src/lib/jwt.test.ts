import { describe, expect, it } from 'vitest';
import { decodeJwtPayload, secondsUntilExpiry, TokenDecodeError } from './jwt';
import { makeJwt } from '../test/jwt';

describe('token decoding', () => {
  it('reads the payload of a JWT', () => {
    expect(decodeJwtPayload(makeJwt({ exp: 100, user_id: 7 }))).toMatchObject({ exp: 100, user_id: 7 });
  });

  it.each([
    [42, 'not_string'],
    [null, 'not_string'],
    ['only-one-part', 'missing_part'],
    ['a.%%%.c', 'bad_base64'],
    [`a.${btoa('not json')}.c`, 'bad_json'],
  ])('rejects %s as %s', (token, reason) => {
    try {
      decodeJwtPayload(token);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(TokenDecodeError);
      expect((error as TokenDecodeError).reason).toBe(reason);
    }
  });

  it('counts seconds to exp', () => {
    expect(secondsUntilExpiry(makeJwt({ exp: 1_000 }), 940_000)).toBe(60);
  });
});
