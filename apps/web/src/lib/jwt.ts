/** Why a token could not be read: each one logs the user out. */
export type TokenDecodeReason = 'not_string' | 'missing_part' | 'bad_base64' | 'bad_json';

export class TokenDecodeError extends Error {
  override name = 'TokenDecodeError';
  constructor(readonly reason: TokenDecodeReason) {
    super(`Invalid token specified: ${reason.replace('_', ' ')}`);
  }
}

function base64UrlDecode(part: string): string {
  const base64 = part.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  let binary: string;
  try {
    binary = atob(padded);
  } catch {
    throw new TokenDecodeError('bad_base64');
  }
  try {
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new TokenDecodeError('bad_base64');
  }
}

/** The payload of a JWT, without checking its signature (the server does that). */
export function decodeJwtPayload(token: unknown): Record<string, unknown> {
  if (typeof token !== 'string') throw new TokenDecodeError('not_string');
  const part = token.split('.')[1];
  if (!part) throw new TokenDecodeError('missing_part');
  const json = base64UrlDecode(part);
  let payload: unknown;
  try {
    payload = JSON.parse(json);
  } catch {
    throw new TokenDecodeError('bad_json');
  }
  if (!payload || typeof payload !== 'object') throw new TokenDecodeError('bad_json');
  return payload as Record<string, unknown>;
}

/** Seconds until the token's `exp` claim (seconds since the epoch); negative once expired. */
export function secondsUntilExpiry(token: unknown, nowMs: number): number {
  const { exp } = decodeJwtPayload(token);
  if (typeof exp !== 'number') throw new TokenDecodeError('bad_json');
  return exp - nowMs / 1000;
}
