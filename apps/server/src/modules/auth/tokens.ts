import { randomUUID } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
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
      let payload;
      try {
        ({ payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          currentDate: now,
        }));
      } catch (error) {
        if (error instanceof joseErrors.JWTExpired) {
          throw new AppError({ code: 'auth.token_expired', detail: 'Token is expired' });
        }
        throw new AppError({ code: 'auth.token_invalid', detail: 'Token is invalid', cause: error });
      }
      const { token_type, user_id, fam, jti, exp } = payload as Record<string, unknown>;
      if (token_type !== expected) {
        throw new AppError({ code: 'auth.token_invalid', detail: 'Token has wrong type' });
      }
      if (typeof user_id !== 'number' || typeof fam !== 'string' || typeof jti !== 'string') {
        throw new AppError({ code: 'auth.token_invalid', detail: 'Token is invalid' });
      }
      return { tokenType: expected, userId: user_id, familyId: fam, jti, exp: exp as number };
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;
