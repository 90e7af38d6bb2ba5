import { SignJWT, jwtVerify, decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { createTokenService } from './tokens.js';

const secret = 'unit-test-secret-unit-test-secret-0123';
const tokens = createTokenService({ secret, accessSeconds: 300, refreshSeconds: 3600 });
const key = new TextEncoder().encode(secret);
const family = '11111111-1111-4111-8111-111111111111';

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('token service', () => {
  it('verifies what it signs, and jose agrees on both directions', async () => {
    const { token, expiresAt } = await tokens.signAccess(7, family);
    const claims = await tokens.verify(token, 'access');
    expect(claims).toMatchObject({ userId: 7, familyId: family, tokenType: 'access' });
    expect(claims.exp).toBe(Math.floor(expiresAt.getTime() / 1000));
    await expect(jwtVerify(token, key, { algorithms: ['HS256'] })).resolves.toBeTruthy();

    const fromJose = await new SignJWT({ token_type: 'refresh', user_id: 9, fam: family })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer('mirra')
      .setJti('j1')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(key);
    expect(await tokens.verify(fromJose, 'refresh')).toMatchObject({ userId: 9, jti: 'j1' });
  });

  it('refuses the other token type, expired tokens, and tokens from another issuer', async () => {
    const { token } = await tokens.signAccess(7, family);
    await expect(tokens.verify(token, 'refresh')).rejects.toMatchObject({
      code: 'auth.token_invalid',
      detail: 'Token has wrong type',
    });
    await expect(tokens.verify(token, 'access', new Date(Date.now() + 301_000))).rejects.toMatchObject({
      code: 'auth.token_expired',
    });
    const foreign = await new SignJWT({ token_type: 'access', user_id: 7, fam: family })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer('someone-else')
      .setJti('x')
      .setExpirationTime('1h')
      .sign(key);
    await expect(tokens.verify(foreign, 'access')).rejects.toMatchObject({ code: 'auth.token_invalid' });
  });

  it('refuses forged signatures, alg none, other algorithms and malformed tokens', async () => {
    const { token } = await tokens.signAccess(7, family);
    const [header, payload] = token.split('.');
    const claims = decodeJwt(token);
    const cases = [
      `${header}.${b64({ ...claims, user_id: 8 })}.${token.split('.')[2]}`,
      `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`,
      `${b64({ alg: 'HS512', typ: 'JWT' })}.${payload}.${token.split('.')[2]}`,
      `${b64({ alg: 'RS256', typ: 'JWT' })}.${payload}.${token.split('.')[2]}`,
      `${header}.${payload}`,
      `${header}.${payload}.${token.split('.')[2]}.extra`,
      `${header}.not-json.${token.split('.')[2]}`,
      '',
    ];
    for (const bad of cases) {
      await expect(tokens.verify(bad, 'access'), bad).rejects.toMatchObject({ code: 'auth.token_invalid' });
    }
    const otherSecret = createTokenService({
      secret: `${secret}x`,
      accessSeconds: 300,
      refreshSeconds: 3600,
    });
    await expect(otherSecret.verify(token, 'access')).rejects.toMatchObject({ code: 'auth.token_invalid' });
  });
});
