import { randomBytes, randomInt, webcrypto } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPair, SignJWT, type GenerateKeyPairResult } from 'jose';

type PrivateKey = GenerateKeyPairResult['privateKey'];

/** The claims of a Google ID token as Google Identity Services issues them (the `credential`). */
export interface GoogleIdTokenClaims {
  iss: string;
  azp: string;
  aud: string | string[];
  sub: string;
  email: string;
  email_verified: boolean;
  nbf: number;
  name: string;
  picture: string;
  given_name: string;
  family_name: string;
  locale: string;
  iat: number;
  exp: number;
  jti: string;
  /** Only for Google Workspace accounts: the hosted domain. */
  hd?: string;
}

/** Claim overrides; `undefined` leaves the claim out of the token altogether. */
export type GoogleIdTokenOverrides = {
  [K in keyof GoogleIdTokenClaims]?: GoogleIdTokenClaims[K] | undefined;
} & {
  [claim: string]: unknown;
};

export interface SignIdTokenOptions {
  /** The `kid` header; defaults to the newest published key. */
  kid?: string;
  /**
   * The key to sign with; defaults to the key `kid` names. Pass `fake.unpublishedKey` (with a
   * published kid) for a token whose signature cannot verify.
   */
  key?: PrivateKey;
}

export interface GoogleCertsFake {
  /** Use as GOOGLE_CERTS_URL. */
  url: string;
  /** The audience tokens get unless overridden; use as GOOGLE_CLIENT_ID. */
  clientId: string;
  /** Kids the certs endpoint serves right now, oldest first (Google serves two at a time). */
  publishedKids(): string[];
  /** How many times the certs endpoint was fetched (to see Cache-Control being honoured). */
  fetchCount(): number;
  /** A key whose certificate is never served: tokens signed with it fail the signature check. */
  unpublishedKey: PrivateKey;
  signIdToken(claims?: GoogleIdTokenOverrides, options?: SignIdTokenOptions): Promise<string>;
  /** Publishes a new key and retires the oldest, as Google does; returns the new kid. */
  rotateKeys(): Promise<string>;
  /** Makes the endpoint answer with this status (a Google outage); null serves the certs again. */
  failWith(status: number | null): void;
  close(): Promise<void>;
}

interface SigningKey {
  kid: string;
  privateKey: PrivateKey;
  /** What the endpoint serves for this kid. */
  pem: string;
}

const CERTS_PATH = '/oauth2/v1/certs';
// The subject and issuer of the certificates Google really serves at oauth2/v1/certs.
const GOOGLE_CERT_SUBJECT = 'federated-signon.system.gserviceaccount.com';

/**
 * A local stand-in for https://www.googleapis.com/oauth2/v1/certs: a real HTTP server on 127.0.0.1
 * answering `{ "<kid>": "<PEM>" }` with `Cache-Control: public, max-age=…`, plus a signer of
 * realistic Google ID tokens with the same locally generated RS256 keys.
 *
 * By default each kid maps to a self-signed X.509 certificate, the format Google serves and the one
 * google-auth-library hands to `crypto.verify` in Node. `format: 'spki'` serves bare
 * `BEGIN PUBLIC KEY` PEMs instead, which `crypto.verify` accepts just the same.
 */
export async function startGoogleCertsFake(
  options: { clientId?: string; maxAgeSeconds?: number; format?: 'x509' | 'spki' } = {},
): Promise<GoogleCertsFake> {
  const clientId = options.clientId ?? `${randomDigits(12)}-fake.apps.googleusercontent.com`;
  const maxAgeSeconds = options.maxAgeSeconds ?? 21_600;
  const format = options.format ?? 'x509';
  const keys = new Map<string, SigningKey>();
  let published: string[] = [];
  let fetches = 0;
  let failure: number | null = null;

  const newKey = async (): Promise<SigningKey> => {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    // Shaped like Google's kids: 40 hex characters.
    const kid = randomBytes(20).toString('hex');
    const spki = Buffer.from(await webcrypto.subtle.exportKey('spki', publicKey as webcrypto.CryptoKey));
    const pem =
      format === 'spki'
        ? toPem('PUBLIC KEY', spki)
        : toPem('CERTIFICATE', await selfSignedCertificate(spki, privateKey, GOOGLE_CERT_SUBJECT));
    const key = { kid, privateKey, pem };
    keys.set(kid, key);
    return key;
  };

  published = [(await newKey()).kid, (await newKey()).kid];
  const unpublishedKey = (await generateKeyPair('RS256')).privateKey;

  const server: Server = createServer((request, response) => {
    if (request.method !== 'GET' || new URL(request.url ?? '/', 'http://x').pathname !== CERTS_PATH) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      return;
    }
    fetches += 1;
    if (failure !== null) {
      response.writeHead(failure, { 'content-type': 'text/plain' }).end('Backend Error');
      return;
    }
    const body = Object.fromEntries(published.map((kid) => [kid, keys.get(kid)!.pem]));
    response
      .writeHead(200, {
        'content-type': 'application/json; charset=UTF-8',
        'cache-control': `public, max-age=${maxAgeSeconds}, must-revalidate, no-transform`,
        expires: new Date(Date.now() + maxAgeSeconds * 1000).toUTCString(),
      })
      .end(JSON.stringify(body, null, 2));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}${CERTS_PATH}`,
    clientId,
    publishedKids: () => [...published],
    fetchCount: () => fetches,
    unpublishedKey,
    async signIdToken(claims = {}, signOptions = {}) {
      const kid = signOptions.kid ?? published[published.length - 1]!;
      const key = signOptions.key ?? keys.get(kid)?.privateKey ?? unpublishedKey;
      const payload = Object.fromEntries(
        Object.entries({ ...defaultClaims(clientId), ...claims }).filter(([, value]) => value !== undefined),
      );
      return new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' }).sign(key);
    },
    async rotateKeys() {
      const { kid } = await newKey();
      published = [...published.slice(1), kid];
      return kid;
    },
    failWith(status) {
      failure = status;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function defaultClaims(clientId: string): GoogleIdTokenClaims {
  const now = Math.floor(Date.now() / 1000);
  const sub = randomDigits(21);
  return {
    iss: 'https://accounts.google.com',
    azp: clientId,
    aud: clientId,
    sub,
    email: `user.${sub}@gmail.com`,
    email_verified: true,
    nbf: now - 10,
    name: 'Ada Lovelace',
    picture: `https://lh3.googleusercontent.com/a/${randomBytes(12).toString('base64url')}=s96-c`,
    given_name: 'Ada',
    family_name: 'Lovelace',
    locale: 'en',
    iat: now,
    exp: now + 3600,
    jti: randomBytes(20).toString('hex'),
  };
}

function randomDigits(length: number): string {
  let digits = String(1 + randomInt(9));
  while (digits.length < length) digits += String(randomInt(10));
  return digits;
}

function toPem(label: string, der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

// A minimal DER writer: just enough ASN.1 for one self-signed certificate. Node can parse X.509
// (crypto.X509Certificate) but not create it, and jose does not do certificates at all.
const SHA256_WITH_RSA = '1.2.840.113549.1.1.11';
const COMMON_NAME = '2.5.4.3';

function derNode(tag: number, content: Buffer): Buffer {
  const { length } = content;
  if (length < 0x80) return Buffer.concat([Buffer.from([tag, length]), content]);
  const lengthBytes = Buffer.from(length.toString(16).padStart(length > 0xff ? 4 : 2, '0'), 'hex');
  return Buffer.concat([Buffer.from([tag, 0x80 | lengthBytes.length]), lengthBytes, content]);
}
const derSequence = (...parts: Buffer[]) => derNode(0x30, Buffer.concat(parts));
const derSet = (...parts: Buffer[]) => derNode(0x31, Buffer.concat(parts));
const derNull = () => Buffer.from([0x05, 0x00]);
const derUtf8 = (text: string) => derNode(0x0c, Buffer.from(text, 'utf8'));
const derBitString = (bytes: Buffer) => derNode(0x03, Buffer.concat([Buffer.from([0]), bytes]));
const derExplicit = (tagNumber: number, content: Buffer) => derNode(0xa0 | tagNumber, content);

function derInteger(bytes: Buffer): Buffer {
  // A leading 0x00 keeps a value whose top bit is set positive.
  return derNode(0x02, bytes[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
}

function serialNumber(): Buffer {
  const serial = randomBytes(8);
  serial[0] = (serial[0]! & 0x7f) | 0x40; // positive, and no leading zero byte (DER is minimal)
  return serial;
}

function derOid(dotted: string): Buffer {
  const [first, second, ...rest] = dotted.split('.').map(Number);
  const bytes = [first! * 40 + second!];
  for (const arc of rest) {
    const chunk = [arc & 0x7f];
    for (let value = arc >>> 7; value > 0; value >>>= 7) chunk.unshift((value & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return derNode(0x06, Buffer.from(bytes));
}

function derUtcTime(date: Date): Buffer {
  const iso = date.toISOString(); // 2026-01-02T03:04:05.678Z → 260102030405Z
  const text = `${iso.slice(2, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
  return derNode(0x17, Buffer.from(text, 'ascii'));
}

async function selfSignedCertificate(
  spki: Buffer,
  privateKey: PrivateKey,
  commonName: string,
): Promise<Buffer> {
  const name = derSequence(derSet(derSequence(derOid(COMMON_NAME), derUtf8(commonName))));
  const algorithm = derSequence(derOid(SHA256_WITH_RSA), derNull());
  const now = Date.now();
  const tbsCertificate = derSequence(
    derExplicit(0, derInteger(Buffer.from([2]))), // v3
    derInteger(serialNumber()),
    algorithm,
    name,
    derSequence(derUtcTime(new Date(now - 86_400_000)), derUtcTime(new Date(now + 14 * 86_400_000))),
    name,
    spki,
  );
  const signature = await webcrypto.subtle.sign(
    'RSASSA-PKCS1-v1_5',
    privateKey as webcrypto.CryptoKey,
    tbsCertificate,
  );
  return derSequence(tbsCertificate, algorithm, derBitString(Buffer.from(signature)));
}
