/** An unsigned JWT with the given claims; the client never checks signatures. */
export function makeJwt(claims: Record<string, unknown>): string {
  const encode = (value: unknown) =>
    btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}.signature`;
}

export const accessExpiringIn = (seconds: number, nowMs = Date.now()) =>
  makeJwt({ token_type: 'access', exp: Math.floor(nowMs / 1000) + seconds });
