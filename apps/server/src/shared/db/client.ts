import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema.js';

export type Db = NodePgDatabase<typeof schema>;
/** A transaction handle; repositories accept either, so callers decide the transaction's extent. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  pool: pg.Pool;
  db: Db;
  close(): Promise<void>;
}

// Bigint columns (ids, Telegram ids) fit in a JS number far past any realistic count.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/**
 * A client that sends every statement unnamed. A pooler in transaction mode (PgBouncer) hands each
 * transaction whichever server session is free, so a statement prepared by name on one session is
 * missing on the next; unnamed statements are parsed and run in one exchange, which it allows.
 */
class UnnamedStatementsClient extends pg.Client {}
const namedQuery = pg.Client.prototype.query as (...args: unknown[]) => unknown;
(UnnamedStatementsClient.prototype as unknown as { query: (...args: unknown[]) => unknown }).query =
  function query(this: pg.Client, config: unknown, ...rest: unknown[]) {
    if (config && typeof config === 'object' && 'name' in config) {
      const { name: _name, ...unnamed } = config as Record<string, unknown>;
      return namedQuery.call(this, unnamed, ...rest);
    }
    return namedQuery.call(this, config, ...rest);
  };

export interface ConnectOptions {
  /** False behind a pooler in transaction mode: statements are never prepared by name. */
  namedStatements?: boolean;
}

export function connectDatabase(
  connectionString: string,
  poolSize: number,
  options: ConnectOptions = {},
): Database {
  const pool = new pg.Pool({
    connectionString,
    max: poolSize,
    ...(options.namedStatements === false ? { Client: UnnamedStatementsClient } : {}),
  });
  // An idle client losing its connection (e.g. the database restarting) must not crash the process.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = drizzle(pool, { schema });
  return { pool, db, close: () => pool.end() };
}
