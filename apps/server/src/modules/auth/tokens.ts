import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { SignJWT } from 'jose';
import { AppError } from '../../shared/errors.js';

export type TokenType = 'access' | 'refresh';

export interface TokenClaims {
  tokenType: TokenType;
  userId: number;
  jti: string;
  /** The sign-in session (refresh-token family) the token belongs to. */
  familyId: string;
  exp: number;
}

export interface TokenSettings {
  secret: string;
  accessSeconds: number;
  refreshSeconds: number;
}

const ISSUER = 'mirra';

/** HS256 JWTs in simplejwt's shape: `token_type`, `user_id`, `jti`, `iat`, `exp` (seconds). */
export function createTokenService(settings: TokenSettings) {
  const key = new TextEncoder().encode(settings.secret);

  async function sign(tokenType: TokenType, userId: number, familyId: string, jti: string, now: Date) {
    const iat = Math.floor(now.getTime() / 1000);
    const lifetime = tokenType === 'access' ? settings.accessSeconds : settings.refreshSeconds;
    const token = await new SignJWT({ token_type: tokenType, user_id: userId, fam: familyId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setJti(jti)
      .setIssuedAt(iat)
      .setExpirationTime(iat + lifetime)
      .sign(key);
    return { token, expiresAt: new Date((iat + lifetime) * 1000) };
  }

  return {
    signAccess: (userId: number, familyId: string, now = new Date()) =>
      sign('access', userId, familyId, randomUUID(), now),
    signRefresh: (userId: number, familyId: string, jti: string, now = new Date()) =>
      sign('refresh', userId, familyId, jti, now),

    /** Verifies signature, expiry and type; throws `auth.token_expired` or `auth.token_invalid`. */
    async verify(token: string, expected: TokenType, now = new Date()): Promise<TokenClaims> {
      const payload = verifyHs256(token, settings.secret);
      const { token_type, user_id, fam, jti, exp, iss } = payload;
      if (iss !== ISSUER || typeof exp !== 'number') {
        throw new AppError({ code: 'auth.token_invalid', detail: 'Token is invalid' });
      }
      if (exp <= Math.floor(now.getTime() / 1000)) {
        throw new AppError({ code: 'auth.token_expired', detail: 'Token is expired' });
      }
      if (token_type !== expected) {
        throw new AppError({ code: 'auth.token_invalid', detail: 'Token has wrong type' });
      }
      if (typeof user_id !== 'number' || typeof fam !== 'string' || typeof jti !== 'string') {
        throw new AppError({ code: 'auth.token_invalid', detail: 'Token is invalid' });
      }
      return { tokenType: expected, userId: user_id, familyId: fam, jti, exp };
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;

// The only header we ever issue. Anything else (alg "none", RS256, extra fields) is refused
// before the signature is even looked at, which rules out algorithm-confusion attacks.
const EXPECTED_HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

/**
 * HS256 verification with node:crypto. WebCrypto (what jose uses) costs ~80–140 µs per token,
 * the largest share of an authenticated request; a plain HMAC costs a few µs. Signing stays
 * with jose, and tests check both agree.
 */
function verifyHs256(token: string, secret: string): Record<string, unknown> {
  const invalid = () => new AppError({ code: 'auth.token_invalid', detail: 'Token is invalid' });
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== EXPECTED_HEADER) throw invalid();
  const expected = createHmac('sha256', secret).update(`${parts[0]}.${parts[1]}`).digest();
  const given = Buffer.from(parts[2]!, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
  try {
    const payload: unknown = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw invalid();
    return payload as Record<string, unknown>;
  } catch {
    throw invalid();
  }
}
