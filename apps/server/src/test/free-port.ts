import { createServer } from 'node:net';

/** A TCP port free on 127.0.0.1 at this moment, for a process or server a test starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
