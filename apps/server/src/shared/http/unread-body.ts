import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

/**
 * A multipart body is read by the route as it streams in, and a route may answer before its end: a
 * refused extra file, a limit reached, a broken part, a throttled caller (a JSON body over the
 * limit is cut off the same way). Node does not read the rest of a body someone started reading, so the next request on that
 * keep-alive connection (behind a proxy, possibly another person's) would wait until the socket
 * timed out. Before the answer is sent, the rest is read and thrown away; when more than
 * `maxDrainBytes` may still be coming, the answer also closes the connection, and reading stops
 * there.
 */
export function registerUnreadBodyDrain(app: FastifyInstance, maxDrainBytes: number): void {
  app.addHook('onSend', async (request, reply) => {
    const raw = request.raw;
    // `complete` is the parser's "whole message received"; light-my-request's requests lack it.
    if (raw.complete !== false) return;
    if (!canDrainWithin(raw, maxDrainBytes)) void reply.header('connection', 'close');
    drain(raw, maxDrainBytes);
  });
}

/** Whether what is left of the body is known to fit in `maxBytes` (chunked bodies are not). */
function canDrainWithin(raw: IncomingMessage, maxBytes: number): boolean {
  const declared = Number(raw.headers['content-length']);
  return Number.isFinite(declared) && declared <= maxBytes;
}

function drain(raw: IncomingMessage, maxBytes: number): void {
  // Whatever still reads it (the multipart parser waiting on a file nobody consumes) would
  // hold the stream paused.
  raw.unpipe();
  let drained = 0;
  raw.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > maxBytes) raw.socket?.destroy();
  });
  raw.on('error', () => undefined);
  raw.resume();
}
