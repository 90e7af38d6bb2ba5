import { createHash, createHmac } from 'node:crypto';

/** Static credentials (the AWS_* environment variables); a session token for temporary ones. */
export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** The longest a presigned URL may live (AWS Signature Version 4). */
export const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;

/**
 * A presigned GET URL (AWS Signature Version 4, query-string authentication, unsigned payload),
 * computed synchronously so serializers can hand one out without a round trip. The same inputs
 * give the same URL, so a browser or CDN can cache a file under it while it holds.
 *
 * `signedAt` must not be in the future for the store (it refuses "not yet valid" requests);
 * `expiresInSeconds` counts from `signedAt`.
 */
export function presignGetUrl(options: {
  objectUrl: URL;
  region: string;
  credentials: S3Credentials;
  signedAt: Date;
  expiresInSeconds: number;
  /** Extra query parameters the store honours, e.g. `response-content-disposition`. */
  query?: Record<string, string>;
}): string {
  const { objectUrl, region, credentials, signedAt } = options;
  const amzDate = signedAt
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const scope = `${day}/${region}/s3/aws4_request`;
  const params: Record<string, string> = {
    ...options.query,
    'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
    'X-Amz-Content-Sha256': 'UNSIGNED-PAYLOAD',
    'X-Amz-Credential': `${credentials.accessKeyId}/${scope}`,
    'X-Amz-Date': amzDate,
    'X-Amz-Expires': String(Math.min(Math.max(1, Math.floor(options.expiresInSeconds)), MAX_PRESIGN_SECONDS)),
    'X-Amz-SignedHeaders': 'host',
  };
  if (credentials.sessionToken) params['X-Amz-Security-Token'] = credentials.sessionToken;
  const canonicalQuery = Object.keys(params)
    .sort()
    .map((name) => `${uriEncode(name)}=${uriEncode(params[name]!)}`)
    .join('&');
  const canonicalPath = objectUrl.pathname
    .split('/')
    .map((segment) => uriEncode(decodeURIComponent(segment)))
    .join('/');
  const canonicalRequest = [
    'GET',
    canonicalPath,
    canonicalQuery,
    `host:${objectUrl.host}\n`,
    'host',
    'UNSIGNED-PAYLOAD',
  ].join('\n');
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = [day, region, 's3', 'aws4_request'].reduce<Buffer>(
    (key, part) => hmac(key, part),
    Buffer.from(`AWS4${credentials.secretAccessKey}`),
  );
  const signature = createHmac('sha256', signingKey).update(stringToSign).digest('hex');
  return `${objectUrl.origin}${canonicalPath}?${canonicalQuery}&X-Amz-Signature=${signature}`;
}

/** RFC 3986 encoding as Signature Version 4 wants it: everything but unreserved characters. */
function uriEncode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

const hmac = (key: Buffer, data: string) => createHmac('sha256', key).update(data).digest();
const sha256Hex = (data: string) => createHash('sha256').update(data).digest('hex');
