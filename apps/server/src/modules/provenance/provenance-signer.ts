import { createPrivateKey, sign as signBytes, webcrypto, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import * as x509 from '@peculiar/x509';
import { CoseAlgorithmIdentifier, type Signer } from '@trustnxt/c2pa-ts/cose';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

/** Where the operator's signing certificate comes from: PEM files, or a development pair made once. */
export interface SignerSource {
  /** PEM: the signing certificate first, then its intermediates (not the root). */
  certFile?: string | undefined;
  /** PEM: the certificate's ECDSA P-256 private key (PKCS#8). */
  keyFile?: string | undefined;
  /** Where the development pair is kept when no files are configured (the database, one for all nodes). */
  development: DevelopmentPairStore;
}

/** A development signing pair in PEM. */
export interface DevelopmentPair {
  rootPem: string;
  leafPem: string;
  keyPem: string;
}

/** Keeps the one development pair: `keep` stores it unless one is there, and answers the one kept. */
export interface DevelopmentPairStore {
  read(): Promise<DevelopmentPair | null>;
  keep(pair: DevelopmentPair): Promise<DevelopmentPair>;
}

/** A C2PA signer, and the root a reader must trust for "signed by Mirra" (the development CA, or none). */
export interface ProvenanceSigner {
  signer: Signer;
  /** The development CA in PEM, when signing with the development pair; a real certificate chains to a public root. */
  developmentRootPem: string | null;
}

const ECDSA = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
/** C2PA wants end-entity certificates with one of these purposes: e-mail protection (id-kp-emailProtection). */
const EMAIL_PROTECTION = '1.3.6.1.5.5.7.3.4';

/**
 * Loads the operator's certificate, or makes (once, kept in the database, never in the repository) a
 * development CA and an ES256 signing certificate under it with the extensions C2PA validators
 * check: digitalSignature key usage (critical), an extended key usage, not a CA, key identifiers.
 * A self-signed end-entity certificate is refused by validators, hence the two levels.
 */
export async function loadProvenanceSigner(source: SignerSource, now: Date): Promise<ProvenanceSigner> {
  if (source.certFile && source.keyFile) {
    const certs = x509.PemConverter.decode(await readFile(source.certFile, 'utf8')).map(
      (der) => new x509.X509Certificate(der),
    );
    const [leaf, ...chain] = certs;
    if (!leaf) throw new Error('C2PA_CERT_FILE holds no certificate');
    const key = createPrivateKey(await readFile(source.keyFile, 'utf8'));
    return { signer: es256Signer(leaf, chain, key), developmentRootPem: null };
  }
  // Made once: a node that loses the race to keep its pair signs with the winner's, so every
  // output chains to one root.
  const stored =
    (await source.development.read()) ?? (await source.development.keep(await makeDevelopmentPair(now)));
  const root = new x509.X509Certificate(stored.rootPem);
  const leaf = new x509.X509Certificate(stored.leafPem);
  return {
    signer: es256Signer(leaf, [root], createPrivateKey(stored.keyPem)),
    developmentRootPem: stored.rootPem,
  };
}

/** ES256 with the signature as r‖s (IEEE P1363), the form COSE requires. */
function es256Signer(
  certificate: x509.X509Certificate,
  chain: x509.X509Certificate[],
  key: KeyObject,
): Signer {
  return {
    certificate,
    chainCertificates: chain,
    algorithm: CoseAlgorithmIdentifier.ES256,
    sign: async (payload) => new Uint8Array(signBytes('sha256', payload, { key, dsaEncoding: 'ieee-p1363' })),
  };
}

async function makeDevelopmentPair(now: Date) {
  const notAfter = new Date(now.getTime() + 10 * 365 * 24 * 3600 * 1000);
  const rootKeys = await webcrypto.subtle.generateKey(ECDSA, true, ['sign', 'verify']);
  const root = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: 'CN=Mirra development C2PA root, O=Mirra (development)',
    notBefore: now,
    notAfter,
    keys: rootKeys,
    signingAlgorithm: ECDSA,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(rootKeys.publicKey),
    ],
  });
  const leafKeys = await webcrypto.subtle.generateKey(ECDSA, true, ['sign', 'verify']);
  const leaf = await x509.X509CertificateGenerator.create({
    serialNumber: '02',
    subject: 'CN=Mirra development signer, O=Mirra (development)',
    issuer: root.subject,
    notBefore: now,
    notAfter,
    publicKey: leafKeys.publicKey,
    signingKey: rootKeys.privateKey,
    signingAlgorithm: ECDSA,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([EMAIL_PROTECTION], false),
      await x509.SubjectKeyIdentifierExtension.create(leafKeys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(root),
    ],
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', leafKeys.privateKey));
  return {
    rootPem: root.toString('pem'),
    leafPem: leaf.toString('pem'),
    keyPem: `-----BEGIN PRIVATE KEY-----\n${pkcs8.toString('base64').replace(/.{64}/g, '$&\n')}\n-----END PRIVATE KEY-----\n`,
  };
}
