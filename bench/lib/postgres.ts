import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '../../apps/server/src/shared/db/embedded-postgres.js';
import type { Logger } from '../../apps/server/src/shared/logger.js';

/**
 * The PostgreSQL a benchmark runs against: DATABASE_URL when set, otherwise an embedded one in a
 * fresh temporary directory on a port nobody listens on, so benchmarks can run side by side.
 * `stop` stops it and removes the directory (which also serves as the benchmark's DATA_DIR).
 */
export async function startBenchPostgres(
  name: string,
  logger: Logger,
): Promise<{ url: string; dir: string; stop: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `mirra-bench-${name}-`));
  let stopEmbedded = async () => {};
  let url = process.env.DATABASE_URL;
  if (!url) {
    const pg = await startEmbeddedPostgres({
      dir: path.join(dir, 'pg'),
      port: await freePort(),
      password: 'bench',
      database: 'bench',
      logger,
    });
    url = pg.connectionString('bench');
    stopEmbedded = () => pg.stop();
  }
  return {
    url,
    dir,
    stop: async () => {
      await stopEmbedded();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A TCP port free on this machine right now (the system picks it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
