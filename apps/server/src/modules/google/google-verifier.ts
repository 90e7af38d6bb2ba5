import { OAuth2Client } from 'google-auth-library';

export interface GoogleIdentity {
  sub: string;
  email: string | null;
  emailVerified: boolean;
  givenName: string;
  familyName: string;
  locale: string | null;
}

export interface GoogleVerifier {
  /** Verifies a Google ID token (the GIS `credential`); throws when it is not valid for us. */
  verify(idToken: string): Promise<GoogleIdentity>;
}

// Explicit: the library's default list also accepts a universe-domain issuer we never want.
const GOOGLE_ISSUERS = ['accounts.google.com', 'https://accounts.google.com'];

/**
 * google-auth-library's verifyIdToken with the audience and issuers always given. GOOGLE_CERTS_URL
 * points it at Google's PEM certificates (cached per Cache-Control) or at a local server in tests.
 */
export function createGoogleVerifier(options: { clientId: string; certsUrl: string }): GoogleVerifier {
  const client = new OAuth2Client({
    clientId: options.clientId,
    issuers: GOOGLE_ISSUERS,
    endpoints: { oauth2FederatedSignonPemCertsUrl: options.certsUrl },
  });
  return {
    async verify(idToken) {
      const ticket = await client.verifyIdToken({
        idToken,
        audience: options.clientId,
      });
      const payload = ticket.getPayload();
      if (!payload?.sub || !payload.iss || !GOOGLE_ISSUERS.includes(payload.iss)) {
        throw new Error(`Invalid issuer: ${payload?.iss}`);
      }
      return {
        sub: payload.sub,
        email: payload.email?.toLowerCase() ?? null,
        emailVerified: payload.email_verified === true,
        givenName: payload.given_name ?? '',
        familyName: payload.family_name ?? '',
        locale: payload.locale ?? null,
      };
    },
  };
}
