import pg from 'pg';
import type { Logger } from '../logger.js';

/**
 * One LISTEN connection per process. PostgreSQL delivers NOTIFY after commit to every listening
 * process, which is how API nodes learn of each other's writes without another broker.
 * When the connection drops, `onReset` fires (listeners must assume they missed messages) and it
 * reconnects with backoff.
 */
export interface NotificationHub {
  subscribe(channel: string, onMessage: (payload: string) => void, onReset: () => void): void;
  /** True while the LISTEN connection is up; caches must not be trusted otherwise. */
  isListening(): boolean;
  close(): Promise<void>;
}

export function createNotificationHub(connectionString: string, logger: Logger): NotificationHub {
  const handlers = new Map<string, Array<{ onMessage: (p: string) => void; onReset: () => void }>>();
  let client: pg.Client | undefined;
  let listening = false;
  let closed = false;
  let retryDelay = 250;
  let connecting: Promise<void> | undefined;

  const resetAll = () => {
    listening = false;
    for (const list of handlers.values()) for (const h of list) h.onReset();
  };

  async function connect(): Promise<void> {
    if (closed) return;
    const next = new pg.Client({ connectionString });
    next.on('notification', (message) => {
      for (const h of handlers.get(message.channel) ?? []) h.onMessage(message.payload ?? '');
    });
    next.on('error', (error) => logger.warn({ err: error }, 'notification connection error'));
    next.on('end', () => {
      if (client !== next) return;
      client = undefined;
      resetAll();
      if (!closed) setTimeout(() => void ensureConnected(), retryDelay).unref();
      retryDelay = Math.min(retryDelay * 2, 10_000);
    });
    try {
      await next.connect();
      for (const channel of handlers.keys()) await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      client = next;
      listening = true;
      retryDelay = 250;
    } catch (error) {
      logger.warn({ err: error }, 'could not LISTEN; retrying');
      await next.end().catch(() => {});
      if (!closed) setTimeout(() => void ensureConnected(), retryDelay).unref();
      retryDelay = Math.min(retryDelay * 2, 10_000);
    }
  }

  function ensureConnected(): Promise<void> {
    connecting ??= connect().finally(() => (connecting = undefined));
    return connecting;
  }

  return {
    subscribe(channel, onMessage, onReset) {
      const list = handlers.get(channel);
      if (list) list.push({ onMessage, onReset });
      else handlers.set(channel, [{ onMessage, onReset }]);
      if (client && listening) void client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      else void ensureConnected();
    },
    isListening: () => listening,
    async close() {
      closed = true;
      listening = false;
      const current = client;
      client = undefined;
      await current?.end().catch(() => {});
    },
  };
}
