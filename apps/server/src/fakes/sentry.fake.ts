import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** One item of an envelope: its header line and its payload (parsed when it is JSON). */
export interface SentryEnvelopeItem {
  header: { type: string; length?: number; [key: string]: unknown };
  payload: unknown;
}

export interface SentryEnvelope {
  header: { event_id?: string; dsn?: string; sent_at?: string; [key: string]: unknown };
  items: SentryEnvelopeItem[];
  /** The envelope as it arrived (after gzip), to look for what must never be in it. */
  raw: string;
}

export interface SentryFake {
  /** Use as SENTRY_DSN_WEB (or SENTRY_DSN): `http://<public key>@<host>/<project id>`. */
  dsn: string;
  envelopes: SentryEnvelope[];
  /** The `event` items received so far. */
  events(): Array<Record<string, unknown>>;
  /** Resolves once at least `count` events arrived. */
  waitForEvents(count: number, timeoutMs?: number): Promise<Array<Record<string, unknown>>>;
  close(): Promise<void>;
}

/**
 * Parses Sentry's envelope format: a JSON header line, then items, each a JSON header line and a
 * payload that is either `length` bytes long or runs to the next newline.
 */
export function parseEnvelope(body: Buffer): SentryEnvelope {
  let offset = 0;
  const line = () => {
    const end = body.indexOf(0x0a, offset);
    const text = body.subarray(offset, end === -1 ? body.length : end).toString('utf8');
    offset = end === -1 ? body.length : end + 1;
    return text;
  };
  const header = JSON.parse(line()) as SentryEnvelope['header'];
  const items: SentryEnvelopeItem[] = [];
  while (offset < body.length) {
    const headerLine = line();
    if (headerLine.trim() === '') continue;
    const itemHeader = JSON.parse(headerLine) as SentryEnvelopeItem['header'];
    if (typeof itemHeader.type !== 'string') throw new Error('an envelope item has no type');
    let payload: string;
    if (typeof itemHeader.length === 'number') {
      payload = body.subarray(offset, offset + itemHeader.length).toString('utf8');
      offset += itemHeader.length;
      if (body[offset] === 0x0a) offset += 1;
    } else {
      payload = line();
    }
    let parsed: unknown = payload;
    try {
      parsed = JSON.parse(payload);
    } catch {
      // An attachment: kept as text.
    }
    items.push({ header: itemHeader, payload: parsed });
  }
  return { header, items, raw: body.toString('utf8') };
}

/** The public key from `?sentry_key=` or the `X-Sentry-Auth` header, as Sentry's ingest reads it. */
function publicKeyOf(request: IncomingMessage, url: URL): string | null {
  const fromQuery = url.searchParams.get('sentry_key');
  if (fromQuery) return fromQuery;
  const auth = request.headers['x-sentry-auth'];
  const match = typeof auth === 'string' ? /sentry_key=([^,\s]+)/.exec(auth) : null;
  return match?.[1] ?? null;
}

/**
 * A Sentry-compatible ingest endpoint (`POST /api/<project>/envelope/`) for tests and `npm run
 * fakes`: it checks the project and public key of its DSN, parses envelopes (gzip too), answers
 * `{"id": <event id>}` as Sentry does, 401 to an unknown key, 400 to a malformed envelope, and
 * answers browsers' CORS preflights.
 */
export async function startSentryFake(
  options: { host?: string; port?: number; projectId?: string; publicKey?: string } = {},
): Promise<SentryFake> {
  const host = options.host ?? '127.0.0.1';
  const projectId = options.projectId ?? '42';
  const publicKey = options.publicKey ?? 'fakepublickey';
  const envelopes: SentryEnvelope[] = [];
  const waiters = new Set<() => void>();
  const cors = {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': 'POST, OPTIONS',
    'access-control-allow-headers': 'content-type, x-sentry-auth',
    'access-control-expose-headers': 'x-sentry-error, retry-after, x-sentry-rate-limits',
  };
  const answer = (response: ServerResponse, status: number, body: unknown, error?: string) => {
    response.writeHead(status, {
      ...cors,
      'content-type': 'application/json',
      ...(error ? { 'x-sentry-error': error } : {}),
    });
    response.end(JSON.stringify(body));
  };
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', `http://${host}`);
    if (request.method === 'OPTIONS') {
      response.writeHead(200, cors).end();
      return;
    }
    if (request.method !== 'POST' || url.pathname !== `/api/${projectId}/envelope/`) {
      answer(response, 404, { detail: 'not found' });
      return;
    }
    if (publicKeyOf(request, url) !== publicKey) {
      answer(response, 401, { detail: 'invalid api key' }, 'invalid api key');
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        const raw = Buffer.concat(chunks);
        const body = request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
        const envelope = parseEnvelope(body);
        envelopes.push(envelope);
        for (const wake of waiters) wake();
        answer(response, 200, { id: envelope.header.event_id ?? null });
      } catch (error) {
        const detail = `invalid envelope: ${(error as Error).message}`;
        answer(response, 400, { detail }, detail);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const events = () =>
    envelopes.flatMap((envelope) =>
      envelope.items
        .filter((item) => item.header.type === 'event')
        .map((item) => item.payload as Record<string, unknown>),
    );
  return {
    dsn: `http://${publicKey}@${host}:${port}/${projectId}`,
    envelopes,
    events,
    waitForEvents(count, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (events().length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(events());
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`expected ${count} error events, got ${events().length}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
