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
  /**
   * Verifies a Google ID token (the GIS `credential`). Throws `GoogleKeysUnavailableError` when
   * Google's signing certificates cannot be fetched, any other error when the token is not valid for us.
   */
  verify(idToken: string): Promise<GoogleIdentity>;
}

/** Google's signing certificates could not be fetched: our outage, not a bad credential. */
export class GoogleKeysUnavailableError extends Error {
  override name = 'GoogleKeysUnavailableError';
}

// Explicit: the library's default list also accepts a universe-domain issuer we never want.
const GOOGLE_ISSUERS = ['accounts.google.com', 'https://accounts.google.com'];
// Per attempt (the library retries). Without it a hung connection to Google holds a sign-in forever.
const CERTS_TIMEOUT_MS = 5_000;

/**
 * google-auth-library's ID-token check with the audience and issuers always given. GOOGLE_CERTS_URL
 * points it at Google's PEM certificates (cached per Cache-Control) or at a local server in tests.
 */
export function createGoogleVerifier(options: { clientId: string; certsUrl: string }): GoogleVerifier {
  const client = new OAuth2Client({
    clientId: options.clientId,
    issuers: GOOGLE_ISSUERS,
    endpoints: { oauth2FederatedSignonPemCertsUrl: options.certsUrl },
    transporterOptions: { timeout: CERTS_TIMEOUT_MS },
  });
  return {
    async verify(idToken) {
      // The two halves of `verifyIdToken`, called apart so that failing to fetch the certificates
      // can be told from a bad token: the first is a 503 for the client, the second a 401.
      const { certs } = await client.getFederatedSignonCertsAsync().catch((error: unknown) => {
        throw new GoogleKeysUnavailableError('Could not fetch Google’s signing certificates.', {
          cause: error,
        });
      });
      const ticket = await client.verifySignedJwtWithCertsAsync(
        idToken,
        certs,
        options.clientId,
        GOOGLE_ISSUERS,
      );
      const payload = ticket.getPayload();
      // The library checked the issuer already; accounts are keyed on `sub`, so it must be there.
      if (!payload?.sub) throw new Error('Google ID token has no subject.');
      if (!payload.iss || !GOOGLE_ISSUERS.includes(payload.iss)) {
        throw new Error(`Invalid issuer: ${payload.iss}`);
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
